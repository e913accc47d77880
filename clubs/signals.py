"""What clubs tell the rest of the app, without importing it (clubs knows no competition).

Sent by clubs/services.py inside its transaction when a name the public pages show
changes: the competition app moves the "last change" of the competitions that show it
(competition/versioning.py), so cached standings and ETags do not keep the old name.
"""

from django.dispatch import Signal

#: Sent with `player_id` (int): a player's name or details changed.
player_changed = Signal()

#: Sent with `club_id` (int): a club's name or details changed.
club_changed = Signal()
