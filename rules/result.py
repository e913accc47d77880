"""The result of a game at a table of 2 to 4: each seat's place, and who beat whom.

The one home of who won (`places`) and of who beat whom at a table (`meetings`): the
standings, the crosstable, the player pages, head to head, the ratings and the exports
all ask these two, so that no page can count a meeting the standings do not.

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

Who beat whom follows from the places alone (`meetings`), each pair from both sides:

>>> [tuple(m) for m in meetings("normal", (2, None, 1))]  # doctest: +NORMALIZE_WHITESPACE
[(0, 1, 'win', False), (0, 2, 'loss', True), (1, 0, 'loss', False),
 (1, 2, 'loss', False), (2, 0, 'win', True), (2, 1, 'win', False)]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal, NamedTuple

#: A meeting's result, from one side.
MeetingResult = Literal["win", "draw", "loss"]

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
    if outcome == "normal" and len(scores) == 2 and not flag_fell and not forfeited:
        # A game of two played on the board, the common case (the ratings read 45,000)
        first, second = scores
        if first is not None and second is not None:
            return (1, 2) if first > second else (2, 1) if first < second else (1, 1)
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


class Meeting(NamedTuple):
    """One seat's meeting with another seat of the same table, from the seat's side.

    A plain tuple: the standings read tens of thousands in a season of tables of four.
    """

    seat: int
    opponent: int
    result: MeetingResult  # the seat's, against the opponent
    on_board: bool  # played over the board; False: won or lost by a forfeit


def meetings(outcome: str, table_places: Sequence[int | None]) -> tuple[Meeting, ...]:
    """Which pairs of seats met at a table and who beat whom, from the seats' places
    (`places`), every pair from both sides, ordered by seat and then opponent.

    - A player who did not come (no place) loses against everyone at the table, also
      against another who did not come: two who stayed away both lose. Not on the board.
    - At a forfeit nobody played: two who came did not meet.
    - Otherwise the better place wins, an equal place draws, on the board.
    - A bye, an annulled game and one not played yet have no meetings.

    >>> [tuple(m) for m in meetings("forfeit", (1, None, None))]  # doctest: +NORMALIZE_WHITESPACE
    [(0, 1, 'win', False), (0, 2, 'win', False), (1, 0, 'loss', False),
     (1, 2, 'loss', False), (2, 0, 'loss', False), (2, 1, 'loss', False)]
    >>> meetings("forfeit", (1, 1, None))[0]
    Meeting(seat=0, opponent=2, result='win', on_board=False)
    >>> meetings("annulled", (None, None))
    ()
    """
    return _meetings(outcome, tuple(table_places))


@cache
def _meetings(outcome: str, table_places: tuple[int | None, ...]) -> tuple[Meeting, ...]:
    # Cached: a season has a few hundred kinds of table (outcome and places), not thousands.
    if outcome not in ("normal", "flag_fall", "forfeit"):
        return ()
    found: list[Meeting] = []
    for seat, own in enumerate(table_places):
        for opponent, theirs in enumerate(table_places):
            if opponent == seat:
                continue
            if own is None or theirs is None:
                found.append(Meeting(seat, opponent, "loss" if own is None else "win", False))
            elif outcome != "forfeit":
                result: MeetingResult = (
                    "win" if own < theirs else "loss" if own > theirs else "draw"
                )
                found.append(Meeting(seat, opponent, result, True))
    return tuple(found)
