"""What a row of a club archive may hold: every field checked as the forms and the engine
check it, before anything is written (used by `archives.backup`).

Two layers, both plain functions: `field_value` checks one value by the kind of its model
field (JSON type, the column's range, plain text, ISO dates, a JSON depth), so a field added
to a model is checked without a change here; `RECORD_CHECKS` adds what the model's fields
cannot say on their own (a game's rule set must be one the engine plays, a disputed result
must look like one). Django's own `clean_fields` then adds choices, lengths and validators.
"""

from __future__ import annotations

import datetime
import unicodedata
import uuid
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

import rules
from clubs.inputs import BIGINT_MAX, INTEGER_MAX, SMALLINT_MAX
from competition.models import Competition
from competition.rulesets import custom_rules_error
from duplicate.models import Evening
from games.models import MAX_SEAT, Game, Outcome

#: The keys of a dispute's other entry (`games.services.TableResult.snapshot` and its seat).
COUNTER_FIELDS = ("outcome", "scores", "flag_fell", "forfeited", "by")

#: Each integer column's range, as PostgreSQL has it (SQLite would take larger numbers, and
#: a restore must give the same answer on both).
INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "SmallIntegerField": (-SMALLINT_MAX - 1, SMALLINT_MAX),
    "PositiveSmallIntegerField": (0, SMALLINT_MAX),
    "IntegerField": (-INTEGER_MAX - 1, INTEGER_MAX),
    "PositiveIntegerField": (0, INTEGER_MAX),
    "BigIntegerField": (-BIGINT_MAX - 1, BIGINT_MAX),
    "PositiveBigIntegerField": (0, BIGINT_MAX),
}
#: Nesting of a JSON field's value (the app's deepest is a move list in a history entry: 4).
MAX_JSON_DEPTH = 10


class Invalid(ValueError):
    """One field of one row is not what the app would have stored; `reason` says why."""

    def __init__(self, field: str, reason: Any) -> None:
        super().__init__(field)
        self.field = field
        self.reason = reason


def _is_plain(text: str, *, lines: bool = False) -> bool:
    """No control characters or lone surrogates (PostgreSQL and UTF-8 refuse those); a
    text field may hold line breaks and tabs."""
    allowed = "\n\r\t" if lines else ""
    return not any(
        unicodedata.category(char) in {"Cc", "Cs"} and char not in allowed for char in text
    )


def _json_ok(value: Any, depth: int = 0) -> bool:
    if depth > MAX_JSON_DEPTH:
        return False
    if isinstance(value, str):
        return _is_plain(value, lines=True)
    if isinstance(value, list):
        return all(_json_ok(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(_json_ok(k) and _json_ok(v, depth + 1) for k, v in value.items())
    return value is None or isinstance(value, bool | int | float)


def _datetime(name: str, value: str) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise Invalid(name, _("is not a date and time")) from None
    if moment.tzinfo is None:
        raise Invalid(name, _("has no time zone"))
    try:
        return moment.astimezone(datetime.UTC)
    except OverflowError:
        raise Invalid(name, _("is out of range")) from None


def field_value(field: models.Field, value: Any) -> Any:
    """`value` from the archive as the model keeps it; `Invalid` when it is not."""
    name, kind = field.name, field.get_internal_type()
    if value is None:
        if not field.null:
            raise Invalid(name, _("must not be empty"))
        return None
    if kind in INTEGER_RANGES:
        if type(value) is not int:
            raise Invalid(name, _("is not a whole number"))
        low, high = INTEGER_RANGES[kind]
        if not low <= value <= high:
            raise Invalid(name, _("is out of range"))
        return value
    if kind == "BooleanField":
        if type(value) is not bool:
            raise Invalid(name, _("is not true or false"))
        return value
    if kind == "JSONField":
        if not _json_ok(value):
            raise Invalid(name, _("holds control characters or is nested too deeply"))
        return value
    if not isinstance(value, str):
        raise Invalid(name, _("is not text"))
    if kind in ("CharField", "SlugField"):
        if not _is_plain(value):
            raise Invalid(name, _("holds control characters or line breaks"))
        return value
    if kind == "TextField":
        if not _is_plain(value, lines=True):
            raise Invalid(name, _("holds control characters"))
        return value
    if kind == "DateField":
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise Invalid(name, _("is not a date")) from None
    if kind == "DateTimeField":
        return _datetime(name, value)
    if kind == "TimeField":  # a competition's evening hours
        try:
            return datetime.time.fromisoformat(value)
        except ValueError:
            raise Invalid(name, _("is not a time")) from None
    if kind == "UUIDField":  # an event's identity
        try:
            return uuid.UUID(value)
        except ValueError:
            raise Invalid(name, _("is not an identity")) from None
    if kind == "DecimalField":  # a season's GV; its digits are checked as a form checks them
        try:
            number = Decimal(value)
        except InvalidOperation:
            raise Invalid(name, _("is not a number")) from None
        if not number.is_finite():
            raise Invalid(name, _("is not a number"))
        return number
    # A field type this module was not written for: refuse rather than guess.
    raise Invalid(name, _("cannot be restored by this Bordpunt"))


# --- what the fields cannot say on their own -------------------------------------------------


def _rule_set_problem(data: Any) -> str | None:
    """Why the engine could not play a two-player game under `data`, or None."""
    error = custom_rules_error(data)
    if error is not None:
        return error
    rule_set = rules.RuleSet.from_dict(data)
    if rule_set.to_dict() != data:
        return str(_("not written as Bordpunt writes a rule set"))
    if not rule_set.players_min <= 2 <= rule_set.players_max:
        return str(_("not a rule set for two players"))
    return None


def _competition(obj: Any) -> None:
    if not isinstance(obj.custom_rules, dict):
        raise Invalid("custom_rules", _("is not a rule set"))
    if obj.custom_rules or obj.rules == Competition.Rules.CUSTOM:
        problem = custom_rules_error(obj.custom_rules)
        if problem is not None:
            raise Invalid("custom_rules", problem)


def _game(obj: Any) -> None:
    # Empty: the game was paired before rule sets were kept on games (Gouds 8, see engine).
    if obj.rules != {}:
        problem = _rule_set_problem(obj.rules) if isinstance(obj.rules, dict) else "—"
        if problem is not None:
            raise Invalid(
                "rules", _("is not a rule set the engine plays: %(problem)s") % {"problem": problem}
            )
    if not _is_counter_result(obj.counter_result):
        raise Invalid("counter_result", _("is not a result"))


def _is_counter_result(counter: Any) -> bool:
    """The other entry of a dispute (`games.confirmation._dispute`): `{}`, or an outcome,
    the scores and the seats named, and the seat that entered it."""
    if counter == {}:
        return True
    if not isinstance(counter, dict) or set(counter) != set(COUNTER_FIELDS):
        return False
    scores, named = counter["scores"], (counter["flag_fell"], counter["forfeited"])
    seat = counter["by"]
    return (
        counter["outcome"] in Outcome.values
        and isinstance(scores, list)
        and 2 <= len(scores) <= MAX_SEAT + 1
        and all(
            score is None or (type(score) is int and abs(score) <= INTEGER_MAX) for score in scores
        )
        and all(
            isinstance(seats, list) and all(type(s) is int and 0 <= s < len(scores) for s in seats)
            for seats in named
        )
        and type(seat) is int
        and 0 <= seat < len(scores)
    )


def _evening(obj: Any) -> None:
    from rules.duplicate import DrawRules

    if obj.rules not in rules.RULE_SETS:
        raise Invalid(
            "rules",
            _("is not a rule set the engine plays: %(problem)s") % {"problem": str(obj.rules)[:40]},
        )
    if not isinstance(obj.draw_rules, dict):
        raise Invalid("draw_rules", _("is not a rule set"))
    if obj.draw_rules:
        try:
            DrawRules.from_dict(obj.draw_rules)
        except (rules.RulesError, TypeError):
            raise Invalid("draw_rules", _("is not a rule set")) from None


#: Checks of a whole row, after its fields (a move's computed fields are recomputed instead).
RECORD_CHECKS: dict[type[models.Model], Callable[[Any], None]] = {
    Competition: _competition,
    Game: _game,
    Evening: _evening,
}


# --- version 1: a game of two sides (before tables) ------------------------------------------

#: The positions of version 1's sides.
_POSITION = {"a": 0, "b": 1}
#: The fields version 1 kept on a game that are its seats' (or positions) now.
_SIDE_FIELDS = ("player_a", "player_b", "score_a", "score_b", "winner")


class Unreadable(ValueError):
    """An archive of an earlier version whose rows cannot be read as this version's."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


def _position(value: Any) -> Any:
    """A side ("a"/"b") as a position; empty as None; anything else as it is (refused
    later by the field's own check, with the field named)."""
    if value in ("", None):
        return None
    return _POSITION.get(value, value) if isinstance(value, str) else value


def _loser(winner: Any) -> str | None:
    return {"a": "b", "b": "a"}.get(winner) if isinstance(winner, str) else None


def _named(outcome: Any, winner: Any) -> tuple[list[bool], list[bool]]:
    """Whose flag fell and who forfeited, per side, as migration games/0009 reads them."""
    loser = _loser(winner)
    flags = [outcome == Outcome.FLAG_FALL and loser == side for side in "ab"]
    forfeits = [outcome == Outcome.FORFEIT and (winner == "none" or loser == side) for side in "ab"]
    return flags, forfeits


def _places_by_winner(outcome: Any, winner: Any) -> tuple[int | None, ...] | None:
    """The places version 1's `winner` gave a pair (None: it gave none that can be)."""
    if outcome in (Outcome.PENDING, Outcome.ANNULLED):
        return (None, None) if winner in ("", "none") else None
    if outcome == Outcome.BYE:
        return (1,) if winner == "a" else None
    if winner == "draw":
        return (1, 1) if outcome == Outcome.NORMAL else None
    if winner == "none":
        return (None, None) if outcome == Outcome.FORFEIT else None
    loser = None if outcome == Outcome.FORFEIT else 2
    return {"a": (1, loser), "b": (loser, 1)}.get(winner) if isinstance(winner, str) else None


def _counter_v1(counter: Any, claimed_by: Any) -> Any:
    """A version-1 dispute (outcome, winner, score_a, score_b) in the seats' form: the
    other entry was the other player's."""
    if not isinstance(counter, dict) or not counter:
        return counter
    if not set(counter) <= {"outcome", "winner", "score_a", "score_b"}:
        return counter  # refused by `_game` as not a result
    outcome, winner = counter.get("outcome", ""), counter.get("winner", "")
    flags, forfeits = _named(outcome, winner)
    claimed = _POSITION.get(claimed_by) if isinstance(claimed_by, str) else None
    return {
        "outcome": outcome,
        "scores": [counter.get("score_a"), counter.get("score_b")],
        "flag_fell": [seat for seat, fell in enumerate(flags) if fell],
        "forfeited": [seat for seat, gone in enumerate(forfeits) if gone],
        "by": None if claimed is None else 1 - claimed,
    }


def seats_from_sides(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1's games, seats and moves (`data` of club.json) as version 2 keeps them,
    mapped as migration games/0009 maps a database: side a is position 0, b is 1; the
    scores, flags, forfeits and confirmations move onto the seats. A seat's place is left
    empty: the restore computes every place (`rules.result.places`), and refuses a game
    whose version-1 winner disagrees with it (`version_1_winners`).

    Rows that are not what version 1 wrote are passed on as they are, for the restore's
    checks to name; a seat whose player is not its game's player on its side is refused.
    """
    games_rows = data.get("games.game")
    if not isinstance(games_rows, list):
        return data
    games = {}
    for row in games_rows:
        if isinstance(row, dict) and type(row.get("id")) is int:
            games[row["id"]] = dict(row)
    new_seats = []
    for row in data.get("games.seat", []) if isinstance(data.get("games.seat"), list) else []:
        if not isinstance(row, dict):
            new_seats.append(row)
            continue
        seat = dict(row)
        side, game_id = seat.pop("side", None), seat.get("game")
        game = games.get(game_id) if type(game_id) is int else None
        if game is None or not isinstance(side, str) or side not in _POSITION:
            seat["position"] = _position(side)
            new_seats.append(seat)
            continue
        if seat.get("player") != game.get(f"player_{side}"):
            raise Unreadable(
                _("games.seat %(id)s does not match its game.") % {"id": str(seat.get("id"))[:20]}
            )
        outcome, winner = game.get("outcome", ""), game.get("winner", "")
        flags, forfeits = _named(outcome, winner)
        position = _POSITION[side]
        seat.update(
            position=position,
            score=game.get(f"score_{side}"),
            place=None,
            flag_fell=flags[position],
            forfeited=forfeits[position],
            confirmed=outcome not in (Outcome.PENDING, Outcome.BYE)
            and (game.get("confirmation") == "confirmed" or game.get("claimed_by") == side),
        )
        new_seats.append(seat)
    new_games = []
    for row in games_rows:
        if not isinstance(row, dict) or type(row.get("id")) is not int:
            new_games.append(row)
            continue
        game = dict(row)
        for name in _SIDE_FIELDS:
            game.pop(name, None)
        game["starter"] = _position(row.get("starter"))
        game["claimed_by"] = _position(row.get("claimed_by"))
        game["counter_result"] = _counter_v1(row.get("counter_result", {}), row.get("claimed_by"))
        new_games.append(game)
    moves = data.get("games.move")
    if isinstance(moves, list):
        moves = [
            {**{k: v for k, v in move.items() if k != "side"}, "seat": _position(move.get("side"))}
            if isinstance(move, dict) and "side" in move
            else move
            for move in moves
        ]
    return {**data, "games.game": new_games, "games.seat": new_seats, "games.move": moves}


def version_1_winners(data: dict[str, Any]) -> dict[int, tuple[int | None, ...] | None]:
    """The places each version-1 game's `winner` gave its sides, by the game's archive id."""
    rows = data.get("games.game")
    if not isinstance(rows, list):
        return {}
    return {
        row["id"]: _places_by_winner(row.get("outcome", ""), row.get("winner", ""))
        for row in rows
        if isinstance(row, dict) and type(row.get("id")) is int
    }


# --- versions 1 and 2: a duplicate competition was a competition of the kind duplicate ------

#: The settings of a competition that only a duplicate competition had.
_DUPLICATE_ONLY = ("think_seconds", "best_evenings")
#: What a `DuplicateCompetition` keeps of the competition it was (migration duplicate/0004).
_DUPLICATE_KEPT = (
    "club",
    "name",
    "slug",
    "start_date",
    "created_at",
    "changed_at",
    "archived_at",
)


def _duplicate_ids(data: dict[str, Any]) -> set[int]:
    rows = data.get("competition.competition")
    return {
        row["id"]
        for row in (rows if isinstance(rows, list) else [])
        if isinstance(row, dict) and row.get("kind") == "duplicate" and type(row.get("id")) is int
    }


def duplicate_apart(data: dict[str, Any]) -> dict[str, Any]:
    """An archive of version 1 or 2 as version 3 keeps it, mapped as migrations
    duplicate/0004–0006 map a database: a competition of the kind duplicate becomes a
    `duplicate.duplicatecompetition` with the same archive id (its evenings point to it
    unchanged), its entrants participants (withdrawn from round N: from evening N); the
    other competitions lose the duplicate settings. Rows not as those versions wrote them
    are passed on, for the restore's checks to name."""
    ids = _duplicate_ids(data)
    competitions, duplicates = [], []
    for row in data.get("competition.competition") or []:
        if not isinstance(row, dict):
            competitions.append(row)
            continue
        if row.get("id") in ids:
            rules_name = row.get("rules")
            duplicates.append(
                {
                    "id": row["id"],
                    **{name: row.get(name) for name in _DUPLICATE_KEPT},
                    "rules": rules_name if rules_name in ("standard", "sbnl") else "standard",
                    "think_seconds": row.get("think_seconds") or 180,
                    "best_evenings": row.get("best_evenings"),
                }
            )
        else:
            competitions.append({k: v for k, v in row.items() if k not in _DUPLICATE_ONLY})
    created = {row["id"]: row.get("created_at") for row in duplicates}
    entrants, participants = [], []
    for row in data.get("competition.entrant") or []:
        if isinstance(row, dict) and row.get("competition") in ids:
            participants.append(
                {
                    "id": row.get("id"),
                    "competition": row["competition"],
                    "player": row.get("player"),
                    "withdrawn_from_evening": row.get("withdrawn_from_round"),
                    "created_at": created.get(row["competition"]),
                }
            )
        else:
            entrants.append(row)
    return {
        **data,
        "competition.competition": competitions,
        "competition.entrant": entrants,
        "duplicate.duplicatecompetition": [
            *(data.get("duplicate.duplicatecompetition") or []),
            *duplicates,
        ],
        "duplicate.participant": [*(data.get("duplicate.participant") or []), *participants],
    }


def duplicate_history_apart(data: dict[str, Any], history: list[Any]) -> list[Any]:
    """The history of an archive of version 1 or 2: a duplicate competition's entries
    keyed by `duplicate_id`, the competition's own entries by its new kind (as migration
    duplicate/0004 does)."""
    ids = _duplicate_ids(data)
    moved = []
    for entry in history:
        row = entry.get("row") if isinstance(entry, dict) else None
        if isinstance(row, dict) and row.get("competition_id") in ids:
            row = {**row, "duplicate_id": row["competition_id"], "competition_id": None}
            if row.get("object_type") == "competition":
                row["object_type"] = "duplicate"
            entry = {**entry, "row": row}
        moved.append(entry)
    return moved


# --- versions 1 to 3: the thinking time was a duplicate competition's own field ---------------

#: The NTSV preset's time per turn: a competition with it needs no rules of its own.
_NTSV_TURN_SECONDS = 180


def thinking_time_into_the_rules(data: dict[str, Any]) -> dict[str, Any]:
    """An archive of version 1 to 3 as version 4 keeps it, as migrations duplicate/0007 and
    0008 map a database: a duplicate competition's `think_seconds` becomes its rules'
    `turn_seconds` (none of its own when it is the NTSV preset's 180), and its evenings'
    slip rules and its turns' thinking time take it too. Rows not as those versions wrote
    them are passed on, for the restore's checks to name."""
    seconds: dict[Any, int] = {}
    competitions = []
    for row in data.get("duplicate.duplicatecompetition") or []:
        if isinstance(row, dict) and "think_seconds" in row:
            row = dict(row)
            value = row.pop("think_seconds")
            if type(value) is int and value != _NTSV_TURN_SECONDS:
                row["settings"] = {"preset": "ntsv", "slips": {"turn_seconds": value}}
            if type(value) is int:
                seconds[row.get("id")] = value
        competitions.append(row)
    evenings, evening_seconds = [], {}
    for row in data.get("duplicate.evening") or []:
        if isinstance(row, dict) and row.get("competition") in seconds:
            value = seconds[row["competition"]]
            evening_seconds[row.get("id")] = value
            if value != _NTSV_TURN_SECONDS and "slip_rules" not in row:
                row = {**row, "slip_rules": {"turn_seconds": value}}
        evenings.append(row)
    turns = [
        {**row, "seconds": evening_seconds[row["evening"]]}
        if isinstance(row, dict) and "seconds" not in row and row.get("evening") in evening_seconds
        else row
        for row in data.get("duplicate.turn") or []
    ]
    return {
        **data,
        "duplicate.duplicatecompetition": competitions,
        "duplicate.evening": evenings,
        "duplicate.turn": turns,
    }
