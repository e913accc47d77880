"""How a game's history values read: a result, a move, a pairing, a seat, as sentences.

Registered with `clubs.history_display` by `GamesConfig.ready`. The values are the codes
the services of games/ store (`games.confirmation._state_of`, `games.moves._entry`,
`competition.services.rounds.pairing_snapshot`); the names come from the entry's label.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from clubs.history_display import EMPTY, Group, Reading
from games.models import MAX_SEAT, Confirmation, Outcome, RoundStatus
from games.services import names_in_words
from games.timing import clock_time
from rules.result import ResultError
from rules.result import places as result_places

#: A result's keys: the seats' form (scores, flags and forfeits per seat in table order),
#: and the two sides' form that entries written before tables of 3 and 4 hold.
RESULT_KEYS = ("outcome", "scores", "flag_fell", "forfeited", "winner", "score_a", "score_b")
COUNTER_KEYS = (*(f"counter_{key}" for key in RESULT_KEYS), "counter_by")
MOVE_KEYS = ("number", "seat", "side", "notation", "rack")

#: The two sides of entries written before tables: "a" is seat 0, "b" seat 1.
_SIDES = {"a": 0, "b": 1}


def seat_of(value: Any) -> int | None:
    """A seat's position from a history value: 0–3, or an old entry's side "a"/"b"."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 0 <= value <= MAX_SEAT:
        return value
    return _SIDES.get(value) if isinstance(value, str) else None


def player(value: Any, reading: Reading) -> str:
    """The player of a seat by name, else "player 2"."""
    seat = seat_of(value)
    if seat is None:
        return EMPTY
    if reading.names and seat < len(reading.names) and reading.names[seat]:
        return reading.names[seat]
    if seat < 2:  # a pair's, as the entries before tables named them
        return _("first player") if seat == 0 else _("second player")
    return _("player %(number)s") % {"number": seat + 1}


def _seats_form(fields: Mapping[str, Any]) -> tuple[list[Any], list[int], list[int]]:
    """The scores and the seats whose flag fell or who forfeited, from either form."""
    if "scores" in fields or "flag_fell" in fields or "forfeited" in fields:
        scores = fields.get("scores")
        return (
            list(scores) if isinstance(scores, list) else [],
            [seat for seat in map(seat_of, fields.get("flag_fell") or []) if seat is not None],
            [seat for seat in map(seat_of, fields.get("forfeited") or []) if seat is not None],
        )
    outcome, winner = fields.get("outcome"), fields.get("winner")
    loser = {"a": 1, "b": 0}.get(winner) if isinstance(winner, str) else None
    scores = [fields.get("score_a"), fields.get("score_b")]
    flags = [loser] if outcome == Outcome.FLAG_FALL and loser is not None else []
    forfeits = []
    if outcome == Outcome.FORFEIT:
        forfeits = [0, 1] if winner == "none" else [loser] if loser is not None else []
    return scores, flags, forfeits


def result_text(fields: Mapping[str, Any], reading: Reading) -> str:
    """A result as a sentence: "An 380 – 412 Bert, Bert wint"; "vlag van An gevallen, …"."""
    outcome = fields.get("outcome", Outcome.PENDING)
    if outcome == Outcome.PENDING:
        return str(Outcome.PENDING.label)
    scores, flags, forfeits = _seats_form(fields)
    parts = [_("flag of %(name)s fell") % {"name": player(seat, reading)} for seat in flags]
    # A forfeit, or at a table of 3 or 4 a game the others played without who did not come.
    if forfeits:
        names = names_in_words(player(seat, reading) for seat in forfeits)
        parts.append(_("forfeit: %(name)s") % {"name": names})
    if outcome not in (Outcome.NORMAL, Outcome.FLAG_FALL, Outcome.FORFEIT):
        parts.append(str(_label(Outcome, outcome)))
    came = [seat for seat in range(len(scores)) if seat not in forfeits]
    scored = bool(came) and all(isinstance(scores[seat], int) for seat in came)
    if scored and len(scores) == 2:
        parts.append(
            _("%(name_a)s %(score_a)s – %(score_b)s %(name_b)s")
            % {
                "name_a": player(0, reading),
                "score_a": scores[0],
                "score_b": scores[1],
                "name_b": player(1, reading),
            }
        )
    elif scored:
        parts.append(", ".join(f"{player(seat, reading)} {scores[seat]}" for seat in came))
    parts += _winners(outcome, scores if scored else [], flags, forfeits, reading, len(scores))
    return ", ".join(parts)


def _winners(
    outcome: str,
    scores: list[Any],
    flags: list[int],
    forfeits: list[int],
    reading: Reading,
    seats: int = 0,
) -> list[str]:
    """ "Bert wint", "gelijkspel" or "niemand wint", as the rules place the seats (`seats`
    at the table, when the value says: a walk-over without scores at a table of 4 has
    winners after the last who did not come)."""
    if outcome == Outcome.ANNULLED:
        return [_("nobody wins")]
    if outcome == Outcome.BYE:
        return []
    count = len(scores) or seats or max([1, *[seat + 1 for seat in (*flags, *forfeits)]])
    if outcome == Outcome.FORFEIT:
        count = max(count, 2)
    try:
        places = result_places(
            outcome,
            scores=scores,
            flag_fell=[seat in flags for seat in range(count)],
            forfeited=[seat in forfeits for seat in range(count)],
        )
    except ResultError:
        return []
    won = [seat for seat, place in enumerate(places) if place == 1]
    if not won:
        return [_("nobody wins")]
    if len(won) == len(places) and len(won) > 1:
        return [_("a draw")]
    if len(won) == 1:
        return [_("%(name)s wins") % {"name": player(won[0], reading)}]
    names = [player(seat, reading) for seat in won]
    return [_("%(names)s win") % {"names": names_in_words(names)}]


def _label(choices: Any, code: Any) -> Any:
    try:
        return choices(code).label
    except ValueError:
        return code


def _counter_result(fields: Mapping[str, Any], reading: Reading) -> str:
    return result_text({key.removeprefix("counter_"): v for key, v in fields.items()}, reading)


def _counter_label(values: Mapping[str, Any], reading: Reading) -> str:
    """Whose the other entry of a dispute is: kept with it ("by"); in entries from before
    tables, the player who did not enter the stored one."""
    disputer = seat_of(values.get("counter_by"))
    if disputer is None:
        entered = seat_of(values.get("entered_by_player"))
        disputer = None if entered is None else 1 - entered if entered < 2 else None
    if disputer is not None:
        return _("entry of %(name)s") % {"name": player(disputer, reading)}
    return _("the other entry")


def notation_text(notation: str) -> str:
    """A move's notation as the scoresheet would say it: a play as written, the rest named."""
    try:
        move = rules.parse_move(notation)
    except rules.RulesError:
        return notation
    if isinstance(move, rules.Play):
        return move.notation()
    if isinstance(move, rules.Pass):
        return _("pass")
    if isinstance(move, rules.Exchange):
        if move.tiles:
            return _("exchange %(tiles)s") % {"tiles": move.tiles}
        return _("exchange %(count)s tiles") % {"count": move.count}
    if isinstance(move, rules.BlankSwap):
        squares = ", ".join(rules.square_name(row, col) for row, col in move.squares)
        return _("blank swap on %(squares)s") % {"squares": squares}
    if isinstance(move, rules.Challenge):
        if move.valid:
            return _("challenge: word valid")
        return _("challenge: word invalid, taken back")
    if isinstance(move, rules.TimePenalty):
        return _("%(minutes)s started minutes over time") % {"minutes": move.minutes}
    if isinstance(move, rules.FlagFall):
        return _("flag fall")
    if isinstance(move, rules.Annul):
        return _("game not properly played")
    if isinstance(move, rules.EndRack):
        return _("left on the rack: %(tiles)s") % {"tiles": move.tiles or EMPTY}
    return notation


def move_text(fields: Mapping[str, Any], reading: Reading) -> str:
    """A move: "Bert: H8 WOORD (rack ABCDEFG)"."""
    text = notation_text(str(fields.get("notation") or ""))
    seat = seat_of(fields.get("seat", fields.get("side")))
    if seat is not None:
        text = f"{player(seat, reading)}: {text}"
    if fields.get("rack"):
        text = _("%(move)s (rack %(rack)s)") % {"move": text, "rack": fields["rack"]}
    return text


def _move_label(values: Mapping[str, Any], reading: Reading) -> str:
    return _("move %(number)s") % {"number": values.get("number", "?")}


def moves_text(moves: Any, reading: Reading) -> str:
    """A whole scoresheet: "1. An: H8 WOORD; 2. Bert: pass"."""
    if not isinstance(moves, list):
        return str(moves)
    return "; ".join(
        f"{move.get('number', '?')}. {move_text(move, reading)}"
        if isinstance(move, dict)
        else str(move)
        for move in moves
    )


def pairing_text(pairings: Any, reading: Reading) -> str:
    """A pairing as kept by the history ([table, [player, opponent], starter], names):
    "tafel 1: An – Bert, An begint; vrije ronde: Cor"."""
    if not isinstance(pairings, list):
        return str(pairings)
    return "; ".join(_one_pairing(row) for row in pairings)


def _one_pairing(row: Any) -> str:
    try:
        table, names, starter = row
        names = [name for name in names if name is not None]
    except (TypeError, ValueError):
        return str(row)
    if len(names) == 1:
        return _("bye: %(name)s") % {"name": names[0]}
    text = " – ".join(str(name) for name in names)
    if table is not None:
        text = _("table %(table)s: %(game)s") % {"table": table, "game": text}
    if starter:
        text = _("%(game)s, %(name)s starts") % {"game": text, "name": starter}
    return text


def _times_left(values: Any, reading: Reading) -> str:
    """Each player's time left on the clock, by name: "Ans 23:30, Bert 24:15"."""
    if not isinstance(values, list):
        return EMPTY
    return ", ".join(f"{player(seat, reading)} {clock_time(ms)}" for seat, ms in enumerate(values))


def register_history_texts() -> None:
    """Name the codes and values a game's history entries hold, for the history pages."""
    from clubs.history_display import register

    register(
        labels={
            "table": gettext_lazy("table"),
            "player_a": gettext_lazy("first player"),
            "player_b": gettext_lazy("second player"),
            "counter_result": _counter_label,
            "left_ms": gettext_lazy("time left"),
            "flag": gettext_lazy("flag fell"),
            "flag_at_ms": gettext_lazy("flag fell after"),
        },
        choices={
            "outcome": Outcome.choices,
            "status": RoundStatus.choices,
            "confirmation": Confirmation.choices,
        },
        texts={
            "starter": lambda seat, reading: player(seat, reading),
            "flag": lambda seat, reading: player(seat, reading),
            "left_ms": _times_left,
            "flag_at_ms": lambda ms, reading: clock_time(ms),
            "entered_by_player": lambda seat, reading: player(seat, reading),
            "confirmed_by": lambda seats, reading: (
                ", ".join(player(seat, reading) for seat in seats)
                if isinstance(seats, list)
                else str(seats)
            ),
            "notation": lambda notation, reading: notation_text(str(notation)),
            "moves": moves_text,
            "pairings": pairing_text,
            "counter_result": lambda fields, reading: (
                result_text(fields, reading) if isinstance(fields, dict) else str(fields)
            ),
        },
        groups=[
            Group(RESULT_KEYS, gettext_lazy("result"), result_text),
            Group(COUNTER_KEYS, _counter_label, _counter_result, needs="counter_outcome"),
            Group(MOVE_KEYS, _move_label, move_text, needs="notation"),
        ],
    )
