"""What games tell the rest of the app, without importing it (games knows no competition).

`game_changed` is sent explicitly by the services in games/services.py and games/moves.py,
inside their transaction, whenever a game's result, moves or starter change. The
competition app listens to keep its "last change" up to date (competition/versioning.py),
which the public pages' ETags and cached standings are keyed on. It is not a model signal:
bulk writes and `update()` would slip past those.
"""

from django.dispatch import Signal

#: Sent with `round_id` (int): a game of that round changed; and `result_changed` (bool):
#: False when only its moves changed so far (a board save mid-game, which cannot change
#: the round's status; the board's services send it again with True once the result does).
game_changed = Signal()

#: Sent with `round_id` (int): a write to a game of that round found nothing to change (a
#: form sent back as shown). Nothing moves forward, but an archived competition still
#: refuses the write, as it refuses every other.
game_unchanged = Signal()

#: Sent with `game_id` (int) and `confirmation` ("provisional" or "disputed"), inside the
#: transaction: a game's result waits for the confirmation of players at its table, or
#: is disputed (`games.confirmation`). The notifications listen (after the commit).
result_awaits = Signal()
