"""What the tournament's screens read, per version, on ``casino.reads``: ``event`` (the record replayed, the
board every screen of the event shows) and ``hands`` (the hands dealt at the tablets). Nothing here writes, and
nothing here imports the write side: the writes leave what they know in these caches."""
