"""The tournament's screens rendered from the reads: the room's ``clock`` display, the player's ``phone``, the
director's and floor's ``console`` and the dealer's ``tablet``."""
