"""The result of a game at a table of 2 to 4: each seat's place.

The standard rules and Gouds 8 agree: the highest score wins, equal scores share. A player
whose flag fell loses against every player whose flag did not fall, whatever the scores;
among the players whose flags fell, and among those whose did not, the score decides. At a
forfeit nobody played: whoever showed up wins, whoever forfeited has no place (a loss).
At a table of 3 or 4 the others may play without a player who did not come: a normal game
(or a flag fall) in which that seat has no score and no place, and loses against everyone.

>>> places("normal", scores=[412, 388, 412])
(1, 3, 1)
>>> places("flag_fall", scores=[300, 410, 280], flag_fell=[False, True, False])
(1, 3, 2)
>>> places("forfeit", forfeited=[True, False])
(None, 1)
>>> places("normal", scores=[300, None, 412], forfeited=[False, True, False])
(2, None, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

#: The outcomes whose seats have a place (a pending game and an annulled one have none).
PLACED = ("normal", "flag_fall", "forfeit", "bye")


class ResultError(ValueError):
    """A result whose parts do not fit together; `code` names what, for the message."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def places(
    outcome: str,
    *,
    scores: Sequence[int | None] = (),
    flag_fell: Sequence[bool] = (),
    forfeited: Sequence[bool] = (),
) -> tuple[int | None, ...]:
    """Each seat's place (1 = won; equal keys share the better place, as 1, 1, 3), or
    None for every seat when the outcome has no places. Raises `ResultError` when the
    parts do not fit the outcome."""
    count = max(len(scores), len(flag_fell), len(forfeited), 1 if outcome == "bye" else 0)
    flags = tuple(flag_fell) or (False,) * count
    forfeits = tuple(forfeited) or (False,) * count
    if len(flags) != count or len(forfeits) != count or (scores and len(scores) != count):
        raise ResultError("seats_differ")
    if outcome == "bye":
        if count != 1 or any(score is not None for score in scores):
            raise ResultError("bye_one_seat")
        return (1,)
    if not 2 <= count <= 4:
        raise ResultError("table_size")
    if outcome in ("", "annulled"):
        return (None,) * count
    if outcome == "forfeit":
        if any(score is not None for score in scores) or any(flags):
            raise ResultError("forfeit_has_no_scores")
        if not any(forfeits):
            raise ResultError("forfeit_without_forfeiter")
        return tuple(None if forfeit else 1 for forfeit in forfeits)
    if outcome not in ("normal", "flag_fall"):
        raise ResultError("unknown_outcome")
    if len(scores) != count:
        raise ResultError("scores_missing")
    seats = list(zip(scores, flags, forfeits, strict=True))
    if any(forfeit and (score is not None or flag) for score, flag, forfeit in seats):
        raise ResultError("forfeit_has_no_scores")
    came = [(score, flag) for score, flag, forfeit in seats if not forfeit]
    if any(score is None for score, _flag in came):
        raise ResultError("scores_missing")
    if len(came) < 2:
        raise ResultError("two_must_play")
    if outcome == "normal" and any(flags):
        raise ResultError("flag_without_flag_fall")
    if outcome == "flag_fall" and not any(flags):
        raise ResultError("flag_fall_without_flag")
    if outcome == "flag_fall" and all(flag for _score, flag in came):
        raise ResultError("every_flag_fell")
    ranked = iter(_ranked([(flag, -score) for score, flag in came if score is not None]))
    return tuple(None if forfeit else next(ranked) for forfeit in forfeits)


def _ranked(keys: Sequence[tuple[bool, int]]) -> tuple[int, ...]:
    """Competition ranking of `keys`, lowest first: 1, 1, 3."""
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)
