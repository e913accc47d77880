"""How a game's history values read: a result, a move, a pairing, a side, as sentences.

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
from games.models import Confirmation, Outcome, RoundStatus, Side, Winner
from games.timing import clock_time

RESULT_KEYS = ("outcome", "winner", "score_a", "score_b")
COUNTER_KEYS = tuple(f"counter_{key}" for key in RESULT_KEYS)
MOVE_KEYS = ("number", "side", "notation", "rack")


def player(side: Any, reading: Reading) -> str:
    """The player of a side ("a"/"b") by name, else "first/second player"."""
    if side not in (Side.A, Side.B):
        return EMPTY
    if reading.names:
        return reading.names[0 if side == Side.A else 1]
    return str(Side(side).label)


def _other(side: Any) -> str:
    return {Side.A: Side.B, Side.B: Side.A}.get(side, "")


def result_text(fields: Mapping[str, Any], reading: Reading) -> str:
    """A result as a sentence: "An 380 – 412 Bert, Bert wint"; "vlag van An gevallen, …"."""
    outcome = fields.get("outcome", Outcome.PENDING)
    winner = fields.get("winner", Winner.UNDECIDED)
    score_a, score_b = fields.get("score_a"), fields.get("score_b")
    if outcome == Outcome.PENDING:
        return str(Outcome.PENDING.label)
    parts = []
    if outcome == Outcome.FLAG_FALL and winner in (Winner.A, Winner.B):
        parts.append(_("flag of %(name)s fell") % {"name": player(_other(winner), reading)})
    elif outcome != Outcome.NORMAL:
        parts.append(str(_label(Outcome, outcome)))
    if score_a is not None and score_b is not None:
        parts.append(
            _("%(name_a)s %(score_a)s – %(score_b)s %(name_b)s")
            % {
                "name_a": player(Side.A, reading),
                "score_a": score_a,
                "score_b": score_b,
                "name_b": player(Side.B, reading),
            }
        )
    if winner in (Winner.A, Winner.B):
        parts.append(_("%(name)s wins") % {"name": player(winner, reading)})
    elif winner == Winner.DRAW:
        parts.append(_("a draw"))
    elif winner == Winner.NONE and outcome != Outcome.BYE:
        parts.append(_("nobody wins"))
    return ", ".join(parts)


def _label(choices: Any, code: Any) -> Any:
    try:
        return choices(code).label
    except ValueError:
        return code


def _counter_result(fields: Mapping[str, Any], reading: Reading) -> str:
    return result_text({key.removeprefix("counter_"): v for key, v in fields.items()}, reading)


def _counter_label(values: Mapping[str, Any], reading: Reading) -> str:
    """The other entry of a dispute is the player's who did not enter the stored one."""
    disputer = _other(values.get("entered_by_player"))
    if disputer:
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
    side = fields.get("side")
    if side in (Side.A, Side.B):
        text = f"{player(side, reading)}: {text}"
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
        table, (name, opponent), starter = row
    except (TypeError, ValueError):
        return str(row)
    if opponent is None:
        return _("bye: %(name)s") % {"name": name}
    text = f"{name} – {opponent}"
    if table is not None:
        text = _("table %(table)s: %(game)s") % {"table": table, "game": text}
    if starter:
        text = _("%(game)s, %(name)s starts") % {"game": text, "name": starter}
    return text


def _times_left(values: Any, reading: Reading) -> str:
    """Each player's time left on the clock, by name: "Ans 23:30, Bert 24:15"."""
    if not isinstance(values, list):
        return EMPTY
    return ", ".join(
        f"{player(side, reading)} {clock_time(ms)}"
        for side, ms in zip((Side.A, Side.B), values, strict=False)
    )


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
            "winner": Winner.choices,
            "side": Side.choices,
            "status": RoundStatus.choices,
            "confirmation": Confirmation.choices,
        },
        texts={
            "starter": lambda side, reading: player(side, reading),
            "flag": lambda side, reading: player(side, reading),
            "left_ms": _times_left,
            "flag_at_ms": lambda ms, reading: clock_time(ms),
            "entered_by_player": lambda side, reading: player(side, reading),
            "notation": lambda notation, reading: notation_text(str(notation)),
            "moves": moves_text,
            "pairings": pairing_text,
            "counter_result": lambda fields, reading: (
                result_text(fields, reading) if isinstance(fields, dict) else str(fields)
            ),
        },
        groups=[
            Group(RESULT_KEYS, gettext_lazy("result"), result_text),
            Group(COUNTER_KEYS, _counter_label, _counter_result),
            Group(MOVE_KEYS, _move_label, move_text, needs="notation"),
        ],
    )
