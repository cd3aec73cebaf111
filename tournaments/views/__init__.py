"""The tournament's pages and posts: ``console`` (the director's and floor's actions), ``setup``, ``desk``
(registration, receipts, links), ``pages`` (the event's read-only pages), ``tablet`` (the dealer's tablet) and
``display`` (the room's clock); ``common`` holds what they share."""
