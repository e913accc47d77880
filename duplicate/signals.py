"""What the duplicate app tells the apps above it, which it may not import.

`game_complete` is sent after the commit when every playing participant of an evening
has a counted slip or a recorded absence for every turn of its finished master game, and
again inside the transaction of a correction that changes its results (a slip corrected,
a late slip accepted, the evening counted under other rules), so that what follows is
written with the correction or not at all: the ranking (ranking/) publishes the game's
results of a ranked event from it. Arguments: `evening` (a `duplicate.models.Evening`).

Django: a signal.
"""

from django.dispatch import Signal

game_complete = Signal()
