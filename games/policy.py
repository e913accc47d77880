"""May this person write this game's result, its moves or its clock: the one rule.

Every service that writes a game asks `write_refusal` before it writes, so a service
refuses whatever page (or command) called it: the players' own entry and confirmation
(`games.confirmation`), the board's moves (`games.moves`) and clock (`games.clock`), and
the secretary's results and correction pages, the CSV and TSH imports (through
`games.services.game_record_result` and `games_record_results`). The pages ask the same
rule to decide what they offer (`game_actions_for`).

Who writes (`by`):
- a user account: its role in the game decides (`role_in_game`): the club's secretaries
  and staff, the game's players, or nobody (an anonymous visitor, another club's
  secretary, a member who does not play the game);
- None: a caller that acts for no one, such as a management command, an import started
  from the command line, the demo seed or a test's setup. It has the club secretary's
  rights. A page always passes `request.user` (an `AnonymousUser` for a visitor), never
  None (`tests/games/test_write_policy.py` holds the views to that).

Imports nothing from competition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Final, Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from clubs.permissions import CLUB_SUSPENDED, club_is_read_only
from events.permissions import manages_competition, manages_competition_of
from games.models import Confirmation, Game, RoundStatus

#: The role of the club's secretaries and staff in a game (and of a caller acting for no one).
SECRETARY: Final = "secretary"
#: Who acts on a game: the club's secretary, or the player at a seat (its position).
Role = Literal["secretary"] | int

SECRETARIES_ONLY = _("Only the club's secretaries can enter or correct results.")
BY_MOVES = _("This game is entered move by move: its result follows from the moves.")
ARCHIVED = _("This competition is archived: it can be read, but no longer be changed.")


class GameAction(StrEnum):
    """What a person can do with a game's result: the buttons of its pages."""

    ENTER = "enter"  # a final score: the first, a player's own again, or another player's other
    CONFIRM = "confirm"  # stand behind the result as it was entered
    OVERRIDE = "override"  # the secretary decides an entered result, with a reason
    MOVES = "moves"  # add, correct or undo moves on the board, the clock, a GCG file
    RECORD = "record"  # the secretary's results and correction pages, the imports: enter,
    # or correct with a reason, a final score that is confirmed at once


@dataclass(frozen=True)
class Refusal:
    """Why a write is refused: a stable `code`, the `message` for the person who tried,
    and whether that person may not touch the game at all (`forbidden`: a 403)."""

    code: str
    message: Any
    forbidden: bool = False


def role_in_game(game: Game, user: AbstractBaseUser | AnonymousUser | None) -> Role | None:
    """ "secretary" for the club's secretaries and staff, the directors of the event the
    competition is a division of (and for None, a caller acting for no one), the seat's
    position (0–3) for the game's players, None for everyone else.

    A secretary who plays the game acts as secretary there too, as on the round's results
    page: what they enter is confirmed at once. Needs the game's players and its round's
    competition and club loaded.
    """
    if manages_competition(user, game.round.competition):
        return SECRETARY
    return game.seat_of(user)


def record_refusal(
    user: AbstractBaseUser | AnonymousUser | None, club: Club, *, event_id: int | None = None
) -> Refusal | None:
    """Why `user` may not write results of `club`'s competitions as its secretary (a
    results file, a TSH file), or None: `GameAction.RECORD`'s rule before there is a game
    to ask (`event_id`: the event the competition is a division of, whose directors may).
    Each game's result is asked again as it is written."""
    if manages_competition_of(user, club=club, event_id=event_id):
        return None
    return Refusal("secretaries_only", SECRETARIES_ONLY, forbidden=True)


def write_refusal(
    game: Game,
    by: AbstractBaseUser | AnonymousUser | None,
    action: GameAction,
    *,
    has_moves: bool | None = None,
) -> Refusal | None:
    """Why `by` may not take `action` on `game` now, or None when it may.

    Needs the game's players and its round's competition and club loaded; `has_moves`
    saves the query when the caller knows whether the game has moves.
    """
    return _refusal(game, role_in_game(game, by), action, _has_moves(game, has_moves))


def game_actions_for(
    user: AbstractBaseUser | AnonymousUser | None, game: Game, *, has_moves: bool | None = None
) -> frozenset[GameAction]:
    """What `user` may do with `game`: what its pages offer and its services accept."""
    role = role_in_game(game, user)
    moves = _has_moves(game, has_moves)
    return frozenset(action for action in GameAction if _refusal(game, role, action, moves) is None)


def _has_moves(game: Game, known: bool | None) -> Callable[[], bool]:
    """Whether the game has moves, asked of the database only when a rule needs it."""
    if known is not None:
        return lambda: known
    return cache(lambda: game.moves.exists())


def _refusal(
    game: Game, role: Role | None, action: GameAction, has_moves: Callable[[], bool]
) -> Refusal | None:
    pair = len(game.seat_list) == 2
    if action == GameAction.RECORD and role != SECRETARY:
        return Refusal("secretaries_only", SECRETARIES_ONLY, forbidden=True)
    if role is None:
        return Refusal(
            "not_at_table",
            _("Only the two players and the club's secretaries may enter this result.")
            if pair
            else _(
                "Only the players at this table and the club's secretaries may enter this result."
            ),
            forbidden=True,
        )
    if game.is_bye:
        return Refusal("bye", _("A bye has no result to enter."))
    if game.round.competition.archived_at is not None:
        return Refusal("archived", ARCHIVED)
    if club_is_read_only(game.round.competition.club):
        return Refusal("suspended", CLUB_SUSPENDED)
    if action == GameAction.MOVES and game.has_result and not has_moves():
        # Moves would silently replace the final score: it is corrected as a score first.
        if role == SECRETARY:
            return Refusal(
                "final_score", _("This game already has a final score; correct that first.")
            )
        return Refusal(
            "final_score",
            _("This game already has a final score: confirm it, or enter the score you agree on."),
        )
    if role == SECRETARY:
        return _secretary_refusal(game, action, has_moves)
    return _player_refusal(game, role, action, has_moves, pair=pair)


def _secretary_refusal(
    game: Game, action: GameAction, has_moves: Callable[[], bool]
) -> Refusal | None:
    """The secretary enters a result once and decides it after that, with a reason; the
    results page and the imports enter or correct it (a correction with a reason)."""
    if action == GameAction.ENTER and game.has_result:
        return Refusal("has_result", _("This game already has a result: decide it with a reason."))
    if action == GameAction.OVERRIDE and not game.has_result:
        return Refusal("no_result", _("This game has no result yet: enter it."))
    if action in (GameAction.ENTER, GameAction.OVERRIDE, GameAction.RECORD) and has_moves():
        return Refusal("by_moves", BY_MOVES)
    if action == GameAction.CONFIRM and not (game.has_result and game.is_provisional):
        return Refusal(
            "nothing_to_confirm", _("There is no entered result waiting for confirmation.")
        )
    return None


def _player_refusal(
    game: Game, role: int, action: GameAction, has_moves: Callable[[], bool], *, pair: bool
) -> Refusal | None:
    """A player enters and confirms their own game while its round is published, until
    the result is confirmed or disputed; the secretary decides after that."""
    if action == GameAction.OVERRIDE:
        return Refusal(
            "secretaries_only",
            _("Only the club's secretaries can decide a result."),
            forbidden=True,
        )
    if game.round.status != RoundStatus.PUBLISHED:
        return Refusal(
            "round_closed",
            _("This round is closed: only the secretary can still change its results."),
        )
    if game.confirmation == Confirmation.DISPUTED:
        return Refusal(
            "disputed", _("This result is disputed: the club's secretary decides it now.")
        )
    if game.has_result and game.confirmation == Confirmation.CONFIRMED:
        return Refusal(
            "confirmed",
            _("This result is confirmed: only the club's secretary can still change it."),
        )
    awaits_me = game.confirmation == Confirmation.PROVISIONAL and not game.seat_list[role].confirmed
    if action == GameAction.CONFIRM:
        if not game.has_result or game.confirmation != Confirmation.PROVISIONAL:
            return Refusal(
                "nothing_to_confirm", _("There is no entered result waiting for confirmation.")
            )
        if not awaits_me:
            if game.claimed_by == role:
                return Refusal(
                    "own_entry",
                    _("You entered this result yourself: your opponent confirms it.")
                    if pair
                    else _("You entered this result yourself: the other players confirm it."),
                )
            return Refusal("confirmed_already", _("You confirmed this result already."))
    # A result from the moves is changed on the board; the opponent may still dispute it.
    if action == GameAction.ENTER and not awaits_me and has_moves():
        return Refusal("by_moves", BY_MOVES)
    return None
