"""Read and write game records in GCG, with a small extension for Gouds 8.

Pure Python: this module imports nothing from Django. GCG is the usual text format
for Scrabble game records (https://www.poslfit.com/scrabble/gcg/). Reading replays
every line through :class:`rules.Game` and checks the recorded score and running total
of each line; a mismatch or an illegal move raises :class:`GCGError` with the line
number.

What GCG lacks is carried in pragmas that other GCG readers ignore:

=====================================  ===========================================
``#rules gouds8``                      rule set preset (standard, gouds8, sbnl, naspa)
``#bordpunt-rules {...}``              a club's own rule set, as JSON (RuleSet.to_dict)
``#tiles dutch``                       tile set (dutch, english)
``#bordpunt-tiles {...}``              a tile set as JSON (TileSet.to_dict)
``#bordpunt-first NICK``               who moved first, when no move line shows it
``#bordpunt-blankswap >NICK: RACK H8,K5 +7 123``   a blank swap (Gouds 8)
``#bordpunt-flagfall >NICK:``          NICK's flag fell (Gouds 8: NICK loses)
``#bordpunt-annulled``                 the game was not properly played
=====================================  ===========================================

A ``(challenge)`` line names who it scores for: the player whose word was upheld (a
bonus, or +0 when the rule set has no penalty) or, when it names the challenger, the
challenger's penalty (points, or the lost turn of Gouds 8 as a 0-point turn). Without
``#rules``/``#tiles`` a file is read as an English NASPA club game.

>>> from rules import Game, parse_move, STANDARD, DUTCH
>>> game = Game(rules=STANDARD, tiles=DUTCH, players=("Ans", "Bert"))
>>> _ = game.push(parse_move("8G ZOEN"))
>>> text = write(game)
>>> print(text.splitlines()[-1])
>Ans:  8G ZOEN +14 14
>>> read(text).game.scores
(14, 0)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules.board import parse_square, square_name
from rules.errors import GCGError, RulesError
from rules.game import Game, MoveResult, WordList
from rules.move import (
    TURN_MOVES,
    Annul,
    BlankSwap,
    Challenge,
    EndRack,
    Exchange,
    FlagFall,
    Move,
    Pass,
    Play,
    TimePenalty,
)
from rules.ruleset import NASPA, RULE_SETS, RuleSet, rule_set
from rules.tiles import ENGLISH, TILE_SETS, TileSet, tile_set


@dataclass
class GCGGame:
    """A game read from GCG, with what the file said beside the moves."""

    game: Game
    #: Line number of each history entry of ``game`` (same order as ``game.history``).
    lines: list[int] = field(default_factory=list)
    #: ``#note`` texts by history index (-1 = before the first move).
    notes: dict[int, list[str]] = field(default_factory=dict)
    #: Other pragmas (``title``, ``lexicon``, ``id`` ...), name -> value.
    pragmas: dict[str, str] = field(default_factory=dict)
    #: End-of-game rack lines: (player, score, total, line number).
    end_lines: list[tuple[int, int, int, int]] = field(default_factory=list)


#: Assumed for a file without ``#rules`` / ``#tiles``: an English club game.
DEFAULT_RULES = NASPA
DEFAULT_TILES = ENGLISH

_SCORE = re.compile(r"^[+-]\d+$")
_INT = re.compile(r"^-?\d+$")
_RACK = re.compile(r"^[A-Za-z?]+$")
_POSITION = re.compile(r"^(\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})$")
_SQUARES = re.compile(r"^[A-Oa-o]\d{1,2}(,[A-Oa-o]\d{1,2})*$")
_END_RACK = re.compile(r"^\(([A-Za-z?]*)\)$")


def decode(data: bytes) -> str:
    """Decode a GCG file: ``#character-encoding`` on the first line decides; else
    UTF-8, falling back to ISO-8859-1 (the GCG default)."""
    first = data.split(b"\n", 1)[0].strip()
    match = re.match(rb"#character-encoding\s+(\S+)", first)
    if match:
        encoding = match.group(1).decode("ascii", "replace")
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError) as exc:
            raise GCGError(line=1, reason=f"cannot decode as {encoding}: {exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def load(
    path: str | Path,
    *,
    rules: RuleSet | None = None,
    tiles: TileSet | None = None,
    lexicon: WordList | None = None,
) -> GCGGame:
    """Read a GCG file from disk (see :func:`read`)."""
    return read(decode(Path(path).read_bytes()), rules=rules, tiles=tiles, lexicon=lexicon)


def read(
    text: str | bytes,
    *,
    rules: RuleSet | None = None,
    tiles: TileSet | None = None,
    lexicon: WordList | None = None,
) -> GCGGame:
    """Replay a GCG record. ``rules``/``tiles`` override the file's pragmas; without
    either, NASPA rules and English tiles. Raises :class:`GCGError` with ``line``."""
    if isinstance(text, bytes):
        text = decode(text)
    lines = text.splitlines()
    file_rules, file_tiles, nicks, names, first_nick = _header(lines)
    first = 0
    if first_nick is not None:
        if first_nick not in nicks:
            raise GCGError(line=1, reason=f"unknown player {first_nick!r}")
        first = nicks[first_nick]
    try:
        game = Game(
            rules=rules or file_rules or DEFAULT_RULES,
            tiles=tiles or file_tiles or DEFAULT_TILES,
            players=tuple(names),
            lexicon=lexicon,
            first_player=first,
        )
    except RulesError as exc:
        raise GCGError(line=1, reason=str(exc)) from None
    record = GCGGame(game)
    pragmas: dict[str, str] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        try:
            _read_line(record, line, number, nicks, pragmas)
        except GCGError:
            raise
        except RulesError as exc:
            raise GCGError(line=number, reason=str(exc), cause=exc.code) from None
    record.pragmas = pragmas
    _check_end_lines(record)
    return record


def header(text: str | bytes) -> tuple[RuleSet | None, TileSet | None]:
    """The rule set and tile set a GCG file names (None where it names none)."""
    if isinstance(text, bytes):
        text = decode(text)
    file_rules, file_tiles, *_ = _header(text.splitlines())
    return file_rules, file_tiles


def _header(
    lines: Sequence[str],
) -> tuple[RuleSet | None, TileSet | None, dict[str, int], list[str], str | None]:
    nicks: dict[str, int] = {}
    names: list[str] = []
    file_rules: RuleSet | None = None
    file_tiles: TileSet | None = None
    first_nick: str | None = None
    # Header pass: players, rule set, tile set, and who moves first.
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        try:
            if line.startswith("#player"):
                match = re.match(r"#player(\d)\s+(\S+)\s*(.*)$", line)
                if not match:
                    raise GCGError(line=number, reason="expected #playerN NICK FULL NAME")
                index = int(match.group(1)) - 1
                if index != len(names):
                    raise GCGError(line=number, reason="players must be listed in order")
                nicks[match.group(2)] = index
                names.append(match.group(3).strip() or match.group(2))
            elif line.startswith("#rules "):
                file_rules = rule_set(line.split(None, 1)[1].strip())
            elif line.startswith("#bordpunt-rules "):
                file_rules = RuleSet.from_dict(json.loads(line.split(None, 1)[1]))
            elif line.startswith("#tiles "):
                file_tiles = tile_set(line.split(None, 1)[1].strip())
            elif line.startswith("#bordpunt-tiles "):
                file_tiles = TileSet.from_dict(json.loads(line.split(None, 1)[1]))
            elif line.startswith("#bordpunt-first "):
                first_nick = line.split(None, 1)[1].strip()
            elif first_nick is None and (
                line.startswith(">")
                or line.startswith("#bordpunt-blankswap")
                or line.startswith("#bordpunt-flagfall")
            ):
                match = re.search(r">([^:\s]+):", line)
                if match:
                    first_nick = match.group(1)
                    if first_nick not in nicks:
                        raise GCGError(line=number, reason=f"unknown player {first_nick!r}")
        except GCGError:
            raise
        except (RulesError, ValueError) as exc:
            raise GCGError(line=number, reason=str(exc)) from None
    if len(names) < 2:
        raise GCGError(line=1, reason="the file must name two players (#player1, #player2)")
    return file_rules, file_tiles, nicks, names, first_nick


def _read_line(
    record: GCGGame, line: str, number: int, nicks: Mapping[str, int], pragmas: dict[str, str]
) -> None:
    game = record.game
    if line.startswith("#"):
        name, _, value = line[1:].partition(" ")
        value = value.strip()
        if name == "note":
            record.notes.setdefault(len(game.history) - 1, []).append(value)
        elif name == "bordpunt-blankswap":
            player, tokens, score, total = _split_move_line(value, number, nicks)
            squares = tokens[-1] if tokens else ""
            if not _SQUARES.match(squares):
                raise GCGError(line=number, reason=f"expected squares like H8,K5, not {squares!r}")
            rack = tokens[0] if len(tokens) == 2 else None
            swap = BlankSwap(tuple(parse_square(s) for s in squares.split(",")))
            _push(record, swap, rack, player, score, total, number)
        elif name == "bordpunt-flagfall":
            match = re.match(r">([^:\s]+):", value)
            if not match or match.group(1) not in nicks:
                raise GCGError(line=number, reason="expected #bordpunt-flagfall >NICK:")
            _push(record, FlagFall(nicks[match.group(1)]), None, None, None, None, number)
        elif name == "bordpunt-annulled":
            _push(record, Annul(), None, None, None, None, number)
        elif not name.startswith("player") and name not in (
            "rules",
            "tiles",
            "bordpunt-rules",
            "bordpunt-tiles",
            "bordpunt-first",
        ):
            pragmas[name] = value
        return
    if not line.startswith(">"):
        raise GCGError(line=number, reason="a line must start with '>' or '#'")
    player, tokens, score, total = _split_move_line(line, number, nicks)
    if score is None or total is None:
        raise GCGError(line=number, reason="a move line ends with +SCORE TOTAL")
    action = tokens[-1] if tokens else ""
    rack = tokens[0] if len(tokens) >= 2 and _RACK.match(tokens[0]) else None
    move: Move
    if len(tokens) >= 2 and _POSITION.match(tokens[-2]):
        rack = tokens[0] if len(tokens) == 3 else None
        move = Play.parse(tokens[-2], action)
    elif action == "-":
        move = Pass()
    elif action == "--":
        move = Challenge(valid=False)
    elif action.lower() == "(challenge)":
        last_play = next((r for r in reversed(game.history) if r.kind == "play"), None)
        if last_play is None or last_play.player == player:
            move = Challenge(valid=True)
        else:
            move = Challenge(valid=True, challenger=player)
    elif action.lower() == "(time)":
        per_minute = game.rules.overtime_penalty
        if per_minute <= 0 or score > 0 or score % per_minute:
            raise GCGError(
                line=number,
                reason=f"a time penalty of {score} does not fit {game.rules.name} "
                f"({per_minute} per started minute)",
            )
        move = TimePenalty(player, -score // per_minute)
    elif _END_RACK.match(action):
        tiles = _END_RACK.match(action).group(1)  # type: ignore[union-attr]
        if not game.is_over:
            raise GCGError(line=number, reason="an end-rack line before the game is over")
        if player in game.pending_end_racks() and score <= 0:
            _push(record, EndRack(player, tiles), None, None, None, None, number)
        record.end_lines.append((player, score, total - game._scores[player], number))
        return
    elif action.startswith("-"):
        body = action[1:]
        if body.isdigit():
            move = Exchange(count=int(body))
        elif _RACK.match(body):
            move = Exchange(tiles=body)
        else:
            raise GCGError(line=number, reason=f"cannot read {action!r}")
    else:
        raise GCGError(line=number, reason=f"cannot read {' '.join(tokens)!r}")
    _push(record, move, rack, player, score, total, number)


def _split_move_line(
    text: str, number: int, nicks: Mapping[str, int]
) -> tuple[int, list[str], int | None, int | None]:
    match = re.match(r">([^:\s]+):(.*)$", text)
    if not match:
        raise GCGError(line=number, reason="expected >NICK: ...")
    nick = match.group(1)
    if nick not in nicks:
        raise GCGError(line=number, reason=f"unknown player {nick!r}")
    tokens = match.group(2).split()
    score = total = None
    if len(tokens) >= 2 and _SCORE.match(tokens[-2]) and _INT.match(tokens[-1]):
        score, total = int(tokens[-2]), int(tokens[-1])
        tokens = tokens[:-2]
    return nicks[nick], tokens, score, total


def _push(
    record: GCGGame,
    move: Move,
    rack: str | None,
    player: int | None,
    score: int | None,
    total: int | None,
    number: int,
) -> MoveResult:
    game = record.game
    turn = isinstance(move, TURN_MOVES)
    result = game.push(move, rack=rack or None, player=player if turn else None)
    record.lines.append(number)
    if player is not None and result.player != player:
        raise GCGError(
            line=number,
            reason=f"this line is for {game.players[player]} but the move is "
            f"{game.players[result.player]}'s",
        )
    if score is not None and result.score != score:
        raise GCGError(
            line=number,
            reason=f"{result.notation}: recorded score {score:+d} but it scores "
            f"{result.score:+d} ({_describe_words(result)})",
        )
    if total is not None and result.total != total:
        raise GCGError(
            line=number,
            reason=f"recorded total {total} but the running total is {result.total}",
        )
    return result


def _describe_words(result: MoveResult) -> str:
    return ", ".join(f"{w} {s}" for w, s in result.words) or "no words"


def _check_end_lines(record: GCGGame) -> None:
    if not record.end_lines:
        return
    game = record.game
    adjustments = list(game.adjustments)
    if game.pending_end_racks():
        players = ", ".join(game.players[p] for p in game.pending_end_racks())
        raise GCGError(line=record.end_lines[-1][3], reason=f"the end rack of {players} is missing")
    # Compare per player: the engine and the file may list the entries in another order.
    by_player: dict[int, list[int]] = {}
    for adj in adjustments:
        by_player.setdefault(adj.player, []).append(adj.score)
    running: dict[int, int] = {}
    for player, score, base_offset, number in record.end_lines:
        expected = by_player.get(player, [])
        if score not in expected:
            raise GCGError(
                line=number,
                reason=f"recorded end-of-game {score:+d} for {game.players[player]}, "
                f"but {game.rules.name} gives {', '.join(f'{s:+d}' for s in expected) or 'none'}",
            )
        expected.remove(score)
        running[player] = running.get(player, 0) + score
        if base_offset != running[player]:
            raise GCGError(
                line=number,
                reason=f"recorded total is {base_offset - running[player]:+d} off the "
                "running total",
            )
    leftover = [(p, s) for p, scores in by_player.items() for s in scores]
    if leftover:
        p, s = leftover[0]
        raise GCGError(
            line=record.end_lines[-1][3],
            reason=f"the end-of-game {s:+d} for {game.players[p]} is not recorded",
        )


def _nick(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name) or "player"


def write(
    game: Game,
    *,
    notes: Mapping[int, Sequence[str]] | None = None,
    pragmas: Mapping[str, str] | None = None,
) -> str:
    """The game as GCG text (UTF-8 pragma included); :func:`read` gives it back."""
    nicks = []
    for i, name in enumerate(game.players):
        nick = _nick(name)
        while nick in nicks:
            nick += f"_{i + 1}"
        nicks.append(nick)
    out = ["#character-encoding UTF-8"]
    for i, (nick, name) in enumerate(zip(nicks, game.players, strict=True)):
        out.append(f"#player{i + 1} {nick} {name}".rstrip())
    rules = game.rules
    if RULE_SETS.get(rules.name) == rules:
        out.append(f"#rules {rules.name}")
    else:
        out.append(f"#bordpunt-rules {json.dumps(rules.to_dict(), sort_keys=True)}")
    if TILE_SETS.get(game.tiles.name) == game.tiles:
        out.append(f"#tiles {game.tiles.name}")
    else:
        out.append(f"#bordpunt-tiles {json.dumps(game.tiles.to_dict(), sort_keys=True)}")
    if game.first_player != 0:
        out.append(f"#bordpunt-first {nicks[game.first_player]}")
    for name, value in (pragmas or {}).items():
        out.append(f"#{name} {value}".rstrip())
    notes = notes or {}
    for text in notes.get(-1, ()):
        out.append(f"#note {text}")
    last_play_rack: dict[int, str] = {}
    for index, result in enumerate(game.history):
        line = _line(result, nicks, last_play_rack)
        if line is not None:
            out.append(line)
        for text in notes.get(index, ()):
            out.append(f"#note {text}")
    for adj in game.adjustments:
        nick = nicks[adj.player]
        if adj.score < 0:
            out.append(f">{nick}: {adj.tiles} ({adj.tiles}) {adj.score:+d} {adj.total}")
        else:
            out.append(f">{nick}:  ({adj.tiles}) {adj.score:+d} {adj.total}")
    return "\n".join(out) + "\n"


def _line(result: MoveResult, nicks: Sequence[str], last_rack: dict[int, str]) -> str | None:
    nick = nicks[result.player]
    rack = result.rack or ""
    tail = f"{result.score:+d} {result.total}"
    kind = result.kind
    if kind == "play":
        last_rack[result.player] = rack
        return f">{nick}: {rack} {result.notation} {tail}"
    if kind in ("exchange", "pass"):
        return f">{nick}: {rack} {result.notation} {tail}"
    if kind == "blank_swap":
        move = result.move
        assert isinstance(move, BlankSwap)
        squares = ",".join(square_name(r, c) for r, c in move.squares)
        return f"#bordpunt-blankswap >{nick}: {rack} {squares} {tail}"
    if kind in ("challenge", "lost_turn"):
        move = result.move
        assert isinstance(move, Challenge)
        if not move.valid:
            return f">{nick}: {last_rack.get(result.player, '')} -- {tail}"
        return f">{nick}:  (challenge) {tail}"
    if kind == "time_penalty":
        return f">{nick}:  (time) {tail}"
    if kind == "flag_fall":
        return f"#bordpunt-flagfall >{nick}:"
    if kind == "annul":
        return "#bordpunt-annulled"
    # End racks are written as the adjustment lines after the last move.
    return None
