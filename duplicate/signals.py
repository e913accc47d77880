"""What the duplicate app tells the apps above it, which it may not import.

`game_complete` is sent (after the commit) when every playing participant of an evening
has a counted slip or a recorded absence for every turn of its finished master game, and
again when a correction changes its results: the ranking (ranking/) publishes the game's
results of a ranked event from it. Arguments: `evening` (a `duplicate.models.Evening`).

Django: a signal.
"""

from django.dispatch import Signal

game_complete = Signal()
