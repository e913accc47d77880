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

import codecs
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.board import parse_square, square_name
from rules.errors import GCGError, RulesError, RuleSetError
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
    #: Passes in the challenge window after a player went out: (player, line number).
    #: They are no turns (the game is over), so they are kept here, not in ``game``.
    window_passes: list[tuple[int, int]] = field(default_factory=list)


#: Assumed for a file without ``#rules`` / ``#tiles``: an English club game.
DEFAULT_RULES = NASPA
DEFAULT_TILES = ENGLISH

# ASCII digits only, and few of them: a score of a million digits is no score.
_SCORE = re.compile(r"^[+-][0-9]{1,6}$")
_INT = re.compile(r"^-?[0-9]{1,7}$")
_COUNT = re.compile(r"^[0-9]{1,2}$")
_RACK = re.compile(r"^[A-Za-z?]+$")
_POSITION = re.compile(r"^([0-9]{1,2}[A-Oa-o]|[A-Oa-o][0-9]{1,2})$")
_SQUARES = re.compile(r"^[A-Oa-o][0-9]{1,2}(,[A-Oa-o][0-9]{1,2})*$")
_END_RACK = re.compile(r"^\(([A-Za-z?]*)\)$")
_PLAYER = re.compile(r"#player([0-9])\s+(\S+)\s*(.*)$")
_NICK = re.compile(r">([^:\s]+):(.*)$")
_ENCODING = re.compile(rb"#character-encoding\s+([A-Za-z0-9_.:-]{1,40})\s*$")
_BOM = b"\xef\xbb\xbf"


def decode(data: bytes) -> str:
    """Decode a GCG file: a UTF-8 byte order mark or ``#character-encoding`` on the
    first line decides; else UTF-8, falling back to ISO-8859-1 (the GCG default)."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise GCGError("gcg_encoding", line=1, encoding="UTF-8") from None
    first = data.split(b"\n", 1)[0].strip()
    if first.startswith(b"#character-encoding"):
        match = _ENCODING.match(first)
        encoding = match.group(1).decode("ascii") if match else first[19:].decode("latin-1")
        try:
            if match is None or codecs.lookup(encoding).name not in _TEXT_ENCODINGS:
                raise LookupError(encoding)
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            shown = "".join(c if c.isprintable() else "?" for c in encoding.strip()[:40])
            raise GCGError("gcg_encoding", line=1, encoding=shown) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


#: The encodings a GCG file may name (what the programs that write GCG use).
_TEXT_ENCODINGS = frozenset(
    codecs.lookup(name).name
    for name in (
        "utf-8",
        "utf-8-sig",
        "iso-8859-1",
        "iso-8859-2",
        "iso-8859-15",
        "cp1252",
        "cp1250",
        "ascii",
        "utf-16",
    )
)


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
    lines = text.removeprefix("\ufeff").splitlines()
    file_rules, file_tiles, nicks, names, first_nick = _header(lines)
    first = 0
    if first_nick is not None:
        if first_nick not in nicks:
            raise GCGError("gcg_unknown_player", line=1, nick=first_nick)
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
        raise _wrap(exc, 1) from None
    record = GCGGame(game)
    pragmas: dict[str, str] = {}
    in_note = False
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if in_note and not line.startswith(("#", ">")):
            # A note running on over the next lines (Quackle and others write these).
            notes = record.notes[len(game.history) - 1]
            notes[-1] = f"{notes[-1]}\n{line}"
            continue
        in_note = line.startswith("#note")
        try:
            _read_line(record, line, number, nicks, pragmas)
        except GCGError:
            raise
        except RulesError as exc:
            raise _wrap(exc, number) from None
    record.pragmas = pragmas
    _check_end_lines(record)
    return record


def _wrap(exc: RulesError, line: int) -> GCGError:
    """The engine's error for a line of the file; the engine's code rides along."""
    return GCGError("gcg_move", line=line, reason=str(exc), cause=exc.code, cause_params=exc.params)


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
    distribution: TileSet | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        pragma, _, value = line.partition(" ")
        value = value.strip()
        if pragma.startswith("#player"):
            match = _PLAYER.match(line)
            if not match:
                raise GCGError("gcg_player_line", line=number)
            index = int(match.group(1)) - 1
            if index != len(names):
                raise GCGError("gcg_player_order", line=number)
            if match.group(2) in nicks:
                raise GCGError("gcg_duplicate_nick", line=number, nick=match.group(2))
            nicks[match.group(2)] = index
            names.append(" ".join(match.group(3).split()) or match.group(2))
        elif pragma in _HEADER_PRAGMAS:
            try:
                if pragma == "#rules":
                    file_rules = rule_set(value)
                elif pragma == "#bordpunt-rules":
                    file_rules = RuleSet.from_dict(_json(value))
                elif pragma == "#tiles":
                    file_tiles = tile_set(value)
                elif pragma == "#bordpunt-tiles":
                    file_tiles = TileSet.from_dict(_json(value))
                elif pragma == "#tile-distribution":
                    # Other programs name their tile set here; a set we know is used.
                    distribution = TILE_SETS.get(value.lower())
                elif pragma == "#bordpunt-first":
                    first_nick = value
            except RulesError as exc:
                reason = str(exc.params.get("reason", exc))
                raise GCGError(
                    "gcg_bad_pragma", line=number, pragma=pragma[1:], reason=reason
                ) from None
        elif first_nick is None and line.startswith(
            (">", "#bordpunt-blankswap", "#bordpunt-flagfall")
        ):
            match = re.search(r">([^:\s]+):", line)
            if match:
                first_nick = match.group(1)
                if first_nick not in nicks:
                    raise GCGError("gcg_unknown_player", line=number, nick=first_nick)
    if len(names) < 2:
        raise GCGError("gcg_no_players", line=1)
    return file_rules, file_tiles or distribution, nicks, names, first_nick


_HEADER_PRAGMAS = frozenset(
    (
        "#rules",
        "#bordpunt-rules",
        "#tiles",
        "#bordpunt-tiles",
        "#tile-distribution",
        "#bordpunt-first",
    )
)


def _json(text: str) -> dict[str, Any]:
    """A JSON object from a pragma; anything that is not one, or nests deeper than a rule
    set or tile set ever does, is a :class:`RuleSetError` (one error for the caller)."""
    depth = deepest = 0
    for char in text:  # brackets inside strings count too: harmless for real files
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest > _JSON_DEPTH:
        raise RuleSetError(reason=f"nested more than {_JSON_DEPTH} deep")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise RuleSetError(reason=f"not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise RuleSetError(reason="not a JSON object")
    return value


_JSON_DEPTH = 8


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
                raise GCGError("gcg_bad_squares", line=number, squares=squares[:40])
            rack = tokens[0] if len(tokens) == 2 else None
            swap = BlankSwap(tuple(parse_square(s) for s in squares.split(",")))
            _push(record, swap, rack, player, score, total, number)
        elif name == "bordpunt-flagfall":
            match = _NICK.match(value)
            if not match or match.group(1) not in nicks:
                raise GCGError("gcg_bad_flagfall", line=number)
            _push(record, FlagFall(nicks[match.group(1)]), None, None, None, None, number)
        elif name == "bordpunt-annulled":
            _push(record, Annul(), None, None, None, None, number)
        elif name == "character-encoding":
            return  # decode() used it; write() writes its own
        elif not name.startswith("player") and "#" + name not in _HEADER_PRAGMAS:
            pragmas[name] = value
        return
    if not line.startswith(">"):
        raise GCGError("gcg_bad_line", line=number)
    player, tokens, score, total = _split_move_line(line, number, nicks)
    if score is None or total is None:
        raise GCGError("gcg_no_score", line=number)
    action = tokens[-1] if tokens else ""
    rack = tokens[0] if len(tokens) >= 2 and _RACK.match(tokens[0]) else None
    move: Move
    if len(tokens) >= 2 and _POSITION.match(tokens[-2]):
        rack = tokens[0] if len(tokens) == 3 else None
        move = Play.parse(tokens[-2], action)
    elif action == "-":
        if game.ending == "going_out" and score == 0:
            # The opponent let the last play stand within the challenge window
            # (written as a pass by Quackle, Macondo and others): no turn, no score.
            _check_total(record, player, total, number)
            record.window_passes.append((player, number))
            return
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
                "gcg_time_penalty",
                line=number,
                score=score,
                rules=game.rules.name,
                per_minute=per_minute,
            )
        move = TimePenalty(player, -score // per_minute)
    elif _END_RACK.match(action):
        tiles = _END_RACK.match(action).group(1)  # type: ignore[union-attr]
        if not game.is_over:
            raise GCGError("gcg_end_rack_early", line=number)
        if player in game.pending_end_racks() and score <= 0:
            _push(record, EndRack(player, tiles), None, None, None, None, number)
        record.end_lines.append((player, score, total - game._scores[player], number))
        return
    elif action.startswith("-"):
        body = action[1:]
        if _COUNT.match(body):
            move = Exchange(count=int(body))
        elif _RACK.match(body):
            move = Exchange(tiles=body)
        else:
            raise GCGError("gcg_unreadable", line=number, text=action[:40])
    else:
        raise GCGError("gcg_unreadable", line=number, text=" ".join(tokens)[:60])
    _push(record, move, rack, player, score, total, number)


def _split_move_line(
    text: str, number: int, nicks: Mapping[str, int]
) -> tuple[int, list[str], int | None, int | None]:
    match = _NICK.match(text)
    if not match:
        raise GCGError("gcg_no_nick", line=number)
    nick = match.group(1)
    if nick not in nicks:
        raise GCGError("gcg_unknown_player", line=number, nick=nick[:40])
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
        names = game.players
        if isinstance(move, Challenge):
            raise GCGError(
                "gcg_challenge_player",
                line=number,
                rules=game.rules.name,
                scorer=names[result.player],
                player=names[player],
            )
        raise GCGError(
            "gcg_wrong_player", line=number, expected=names[player], player=names[result.player]
        )
    if score is not None and result.score != score:
        raise GCGError(
            "gcg_score",
            line=number,
            notation=result.notation,
            recorded=score,
            computed=result.score,
            words=_describe_words(result),
        )
    if total is not None:
        _check_total(record, result.player, total, number)
    return result


def _check_total(record: GCGGame, player: int, total: int, number: int) -> None:
    """The recorded running total against the engine's, counting end-of-game lines
    already read (a time penalty or challenge may follow them)."""
    after_end = sum(score for p, score, _, _ in record.end_lines if p == player)
    running = record.game._scores[player] + after_end
    if total != running:
        raise GCGError("gcg_total", line=number, recorded=total, computed=running)


def _describe_words(result: MoveResult) -> str:
    return ", ".join(f"{w} {s}" for w, s in result.words) or "no words"


def _check_end_lines(record: GCGGame) -> None:
    if not record.end_lines:
        return
    game = record.game
    adjustments = list(game.adjustments)
    if game.pending_end_racks():
        players = ", ".join(game.players[p] for p in game.pending_end_racks())
        raise GCGError("gcg_end_rack_missing", line=record.end_lines[-1][3], players=players)
    # Compare per player: the engine and the file may list the entries in another order.
    by_player: dict[int, list[int]] = {}
    for adj in adjustments:
        by_player.setdefault(adj.player, []).append(adj.score)
    running: dict[int, int] = {}
    for player, score, base_offset, number in record.end_lines:
        expected = by_player.get(player, [])
        if score not in expected:
            raise GCGError(
                "gcg_end_score",
                line=number,
                recorded=score,
                player=game.players[player],
                rules=game.rules.name,
                expected=", ".join(f"{s:+d}" for s in expected) or "0",
            )
        expected.remove(score)
        running[player] = running.get(player, 0) + score
        if base_offset != running[player]:
            raise GCGError("gcg_end_total", line=number, offset=base_offset - running[player])
    leftover = [(p, s) for p, scores in by_player.items() for s in scores]
    if leftover:
        p, s = leftover[0]
        raise GCGError(
            "gcg_end_not_recorded",
            line=record.end_lines[-1][3],
            score=s,
            player=game.players[p],
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
    out += _note_lines(notes.get(-1, ()))
    last_play_rack: dict[int, str] = {}
    for index, result in enumerate(game.history):
        line = _line(result, nicks, last_play_rack)
        if line is not None:
            out.append(line)
        out += _note_lines(notes.get(index, ()))
    for adj in game.adjustments:
        nick = nicks[adj.player]
        if adj.score < 0:
            out.append(f">{nick}: {adj.tiles} ({adj.tiles}) {adj.score:+d} {adj.total}")
        else:
            out.append(f">{nick}:  ({adj.tiles}) {adj.score:+d} {adj.total}")
    return "\n".join(out) + "\n"


def _note_lines(texts: Sequence[str]) -> list[str]:
    """``#note`` lines; a note of several lines runs on as continuation lines (as
    Quackle writes them), except where a line would read as a move or pragma."""
    out = []
    for text in texts:
        first, *rest = text.split("\n")
        out.append(f"#note {first}".rstrip())
        for line in rest:
            line = line.strip()
            if line:
                out.append(f"#note {line}" if line.startswith(("#", ">")) else line)
    return out


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
