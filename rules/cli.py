"""Command line: ``python -m rules replay|check|moves|analyse|duplicate|build-lexicon``.

Pure Python: this module imports nothing from Django.

* ``replay FILE.gcg [--rules R] [--tiles T] [--no-lexicon] [--json]`` replays a game
  record, printing each move with its computed score, words, warnings and running
  total, then the result. Exit status 1 (with ``FILE:LINE: reason``) on an illegal move
  or a score that differs from the record.
* ``check WORD... [--rules R]`` says whether each word is playable.
* ``build-lexicon ...`` builds the word lists (:func:`rules.lexicon_build.main`).
* ``moves FILE.gcg --rack RACK [--after N] [--top K] [--exchanges] [--json]`` lists
  every play for RACK in the position after move N, best first, the blank swaps
  (Gouds 8) and whether an exchange is allowed there (with ``--exchanges``: every
  distinct one, listed apart from the plays so they never crowd out the top K). A rack
  longer than the rule set's (or than the player holds), or one the tile set cannot
  give, exits 2 with the reason.
* ``analyse FILE.gcg [--json]`` gives, per turn with a known rack, the best play (or
  blank swap) and the points left on the table, and the total per player.
* ``duplicate --bag TILES [--rules R] [--draw-rules JSON] [--json]`` plays a duplicate
  master game from a bag order (:mod:`rules.cli_duplicate`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rules import cli_duplicate, gcg
from rules.errors import GCGError, RulesError
from rules.game import Game, WordList
from rules.ruleset import RULE_SETS, RuleSet, rule_set
from rules.tiles import TILE_SETS, TileSet, tile_set

#: The help's first line: the docstring's, written out since a module compiled with mypyc
#: (the compiled engine, docs/deployment.md) has no __doc__.
DESCRIPTION = "Command line: python -m rules replay|check|moves|analyse|duplicate|build-lexicon."


def _load_lexicon(kind: str, err: TextIO) -> WordList | None:
    try:
        from rules.lexicon import Lexicon
    except ImportError as exc:  # the word list module is optional for replaying
        print(f"note: no word list available ({exc}); words are not checked", file=err)
        return None
    try:
        return Lexicon.default(kind)
    except (ValueError, OSError) as exc:
        print(f"note: no {kind} word list ({exc}); words are not checked", file=err)
        return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rules", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="replay and score a GCG game record")
    replay.add_argument("file")
    replay.add_argument("--rules", choices=sorted(RULE_SETS), help="default: from the file")
    replay.add_argument("--tiles", choices=sorted(TILE_SETS), help="default: from the file")
    replay.add_argument("--no-lexicon", action="store_true", help="do not check words")
    replay.add_argument("--json", action="store_true", help="print one JSON document")
    check = sub.add_parser("check", help="say whether words are playable")
    check.add_argument("words", nargs="+")
    check.add_argument("--rules", choices=sorted(RULE_SETS), default="gouds8")
    sub.add_parser("build-lexicon", help="build the word lists", add_help=False)
    _add_movegen_parsers(sub)
    cli_duplicate.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point; returns the exit status."""
    out = out or sys.stdout
    err = sys.stderr
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "build-lexicon":
        from rules import lexicon_build

        return lexicon_build.main(args_list[1:])
    args = _parser().parse_args(args_list)
    if args.command == "replay":
        return _replay(args, out, err)
    if args.command == "moves":
        return _moves(args, out, err)
    if args.command == "analyse":
        return _analyse(args, out, err)
    if args.command == "duplicate":
        return cli_duplicate.run(args, out, err)
    return _check(args, out, err)


def _replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rules: RuleSet | None = rule_set(args.rules) if args.rules else None
    tiles: TileSet | None = tile_set(args.tiles) if args.tiles else None
    try:
        data = open(args.file, "rb").read()  # noqa: SIM115 - read whole file at once
    except OSError as exc:
        print(f"{args.file}: {exc.strerror}", file=err)
        return 2
    lexicon = None
    if not args.no_lexicon:
        # The file's own #rules decides the word list unless --rules is given.
        try:
            probe_rules = rules or gcg.header(data)[0] or gcg.DEFAULT_RULES
        except RulesError:
            probe_rules = None  # reading the file below reports the error
        if probe_rules is not None:
            lexicon = _load_lexicon(probe_rules.lexicon, err)
    try:
        record = gcg.read(data, rules=rules, tiles=tiles, lexicon=lexicon)
    except GCGError as exc:
        print(f"{args.file}:{exc.line}: {exc.reason}", file=err)
        return 1
    if args.json:
        json.dump(_as_json(record), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        _print_text(record, out)
    return 0


def _as_json(record: gcg.GCGGame) -> dict[str, Any]:
    game = record.game
    moves: list[dict[str, Any]] = []
    for index, result in enumerate(game.history):
        moves.append(
            {
                "line": record.lines[index] if index < len(record.lines) else None,
                "player": game.players[result.player],
                "player_index": result.player,
                "kind": result.kind,
                "notation": result.notation,
                "rack": result.rack,
                "score": result.score,
                "total": result.total,
                "words": [[w, s] for w, s in result.words],
                "bingo": result.bingo,
                "warnings": [
                    {"code": w.code, "message": w.message, **dict(w.params)}
                    for w in result.warnings
                ],
            }
        )
    for adj in game.adjustments:
        moves.append(
            {
                "line": None,
                "player": game.players[adj.player],
                "player_index": adj.player,
                "kind": "end_adjustment",
                "notation": adj.notation,
                "rack": adj.tiles,
                "score": adj.score,
                "total": adj.total,
                "words": [],
                "bingo": False,
                "warnings": [],
            }
        )
    return {
        "players": list(game.players),
        "rules": game.rules.name,
        "tiles": game.tiles.name,
        "moves": moves,
        "scores": list(game.scores),
        "pending_end_racks": [game.players[p] for p in game.pending_end_racks()],
        "result": _result_json(game),
    }


def _result_json(game: Game) -> dict[str, Any] | None:
    """The outcome; no winner while end racks are missing (the adjustment may turn it)."""
    result = game.result
    if result is None:
        return None
    winner = None if result.pending_end_racks else result.winner
    return {
        "scores": list(result.scores),
        "winner": None if winner is None else game.players[winner],
        "winner_index": winner,
        "ending": result.ending,
        "flag_fallen": result.flag_fallen,
        "pending_end_racks": [game.players[p] for p in result.pending_end_racks],
    }


def _print_text(record: gcg.GCGGame, out: TextIO) -> None:
    game = record.game
    width = max(len(p) for p in game.players)
    for index, result in enumerate(game.history):
        words = ", ".join(f"{w} {s}" for w, s in result.words)
        if result.bingo and game.rules.bingo_bonus:
            words += f", bingo {game.rules.bingo_bonus}"
        line = (
            f"{index + 1:3d}  {game.players[result.player]:<{width}}  "
            f"{(result.rack or ''):<8} {result.notation:<18} {result.score:+5d} "
            f"{result.total:5d}  {words}"
        )
        out.write(line.rstrip() + "\n")
        for warning in result.warnings:
            out.write(f"     warning: {warning.message}\n")
    for adj in game.adjustments:
        out.write(
            f"end  {game.players[adj.player]:<{width}}  {'':<8} {adj.notation:<18} "
            f"{adj.score:+5d} {adj.total:5d}  end of game\n"
        )
    out.write(_verdict(game) + "\n")


def _verdict(game: Game) -> str:
    """The last line of a replay: the result, or why there is none yet."""
    result = game.result
    scores = " - ".join(f"{p} {s}" for p, s in zip(game.players, game.scores, strict=True))
    if result is None:
        return f"Not finished: {scores}"
    if result.pending_end_racks:
        missing = ", ".join(game.players[p] for p in result.pending_end_racks)
        ending = result.ending.replace("_", " ")
        return (
            f"Over ({ending}), result pending: {scores} before the end adjustment; "
            f"the end rack of {missing} is needed"
        )
    if result.ending == "annulled":
        verdict = "game annulled"
    elif result.winner is None:
        verdict = "draw"
    else:
        verdict = f"{game.players[result.winner]} wins"
    ending = result.ending.replace("_", " ")
    return f"Result: {scores}; {verdict} ({ending})"


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rules = rule_set(args.rules)
    try:
        from rules.lexicon import Lexicon, normalise

        lexicon = Lexicon.default(rules.lexicon)
    except (ImportError, ValueError, OSError):
        print(
            f"{rules.name} has no word list here (its lexicon is {rules.lexicon!r}; "
            f"word lists: {', '.join(_word_lists())}): words cannot be checked",
            file=err,
        )
        return 2
    tiles = _CHECK_TILES.get(rules.lexicon, TILE_SETS["dutch"])
    status = 0
    for word in args.words:
        verdict = check_word(word, rules=rules, lexicon=lexicon, tiles=tiles, normalise=normalise)
        if not verdict.startswith("playable"):
            status = 1
        out.write(f"{word}: {verdict}\n")
    return status


#: The tile set a word is checked against, by the rule set's lexicon.
_CHECK_TILES = {"english": TILE_SETS["english"]}


def _word_lists() -> list[str]:
    try:
        from rules.lexicon import KINDS
    except ImportError:
        return []
    return sorted(KINDS)


def check_word(
    word: str,
    *,
    rules: RuleSet,
    lexicon: WordList,
    tiles: TileSet,
    normalise: Any,
) -> str:
    """``"playable"`` or the reason why ``word`` cannot be played under ``rules``."""
    normal = normalise(word)
    if normal is None:
        return "not playable (digits or symbols)"
    if not 2 <= len(normal) <= 15:
        return f"not playable ({normal}: a word on the board has 2 to 15 letters)"
    short = 0
    for letter in set(normal):
        short += max(0, normal.count(letter) - tiles.count(letter))
    if short > tiles.blanks:
        return f"not playable ({normal}: not enough {tiles.name} tiles)"
    if normal not in lexicon:
        return f"not in the {rules.lexicon} word list"
    return "playable" if normal == word.upper() else f"playable (as {normal})"


# -- moves and analyse: the move generator (rules.movegen, rules.analysis) ---------------


def _add_movegen_parsers(sub: Any) -> None:
    moves = sub.add_parser("moves", help="list every play for a rack in a game's position")
    moves.add_argument("file")
    moves.add_argument("--rack", required=True, help="the tiles, ? for a blank")
    moves.add_argument(
        "--after", type=int, help="position after this many moves (default: all of them)"
    )
    moves.add_argument("--top", type=int, help="only the best K plays")
    moves.add_argument(
        "--exchanges", action="store_true", help="also list every distinct exchange allowed"
    )
    analyse = sub.add_parser("analyse", help="best play and points missed per turn")
    analyse.add_argument("file")
    for parser in (moves, analyse):
        parser.add_argument("--rules", choices=sorted(RULE_SETS), help="default: from the file")
        parser.add_argument(
            "--word-list",
            help="plain text word list to generate from (default: the rule set's own list)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON document")


def _movegen_setup(args: argparse.Namespace, err: TextIO) -> tuple[gcg.GCGGame, Any] | None:
    """The replayed record and a move generator, or None after printing why not."""
    from rules.dawg import Dawg, build
    from rules.lexicon import Lexicon, UnknownLexiconKind
    from rules.movegen import MoveGenerator

    rules: RuleSet | None = rule_set(args.rules) if args.rules else None
    try:
        data = open(args.file, "rb").read()  # noqa: SIM115 - read whole file at once
    except OSError as exc:
        print(f"{args.file}: {exc.strerror}", file=err)
        return None
    try:
        record = gcg.read(data, rules=rules)
    except GCGError as exc:
        print(f"{args.file}:{exc.line}: {exc.params.get('reason', exc)}", file=err)
        return None
    kind = record.game.rules.lexicon
    if args.word_list:
        try:
            dawg = build(Lexicon.from_file(args.word_list).iterkeys())
        except (OSError, UnicodeError) as exc:
            print(f"{args.word_list}: {exc}", file=err)
            return None
    else:
        try:
            dawg = Dawg.default(kind)
        except UnknownLexiconKind:
            print(
                f"no {kind} word list ships with Bordpunt; give one with --word-list FILE",
                file=err,
            )
            return None
    return record, MoveGenerator(dawg)


def _moves(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from rules.movegen import blank_swaps, exchanges

    setup = _movegen_setup(args, err)
    if setup is None:
        return 2
    record, generator = setup
    game = record.game
    count = len(game.history)
    after = count if args.after is None else args.after
    if not 0 <= after <= count:
        print(f"--after must be 0 to {count} (the moves in the file)", file=err)
        return 2
    if args.top is not None and args.top < 1:
        print("--top must be at least 1", file=err)
        return 2
    while len(game.history) > after:
        game.pop()
    if game.to_move is None:
        print(f"the game is over after move {after}: no plays", file=err)
        return 2
    try:
        plays = generator.plays(game, args.rack)
        swaps = exchanges(game, args.rack)
        blank = blank_swaps(game, args.rack)
    except RulesError as exc:
        under = f" (rule set {game.rules.name})" if exc.code == "rack_too_large" else ""
        print(f"--rack {args.rack}: {exc}{under}", file=err)
        return 2
    shown = plays if args.top is None else plays[: args.top]
    rack = "".join(sorted(args.rack.upper(), key=lambda t: (t == "?", t)))
    if args.json:
        document = {
            "after": after,
            "player": game.players[game.to_move],
            "rack": rack,
            "rules": game.rules.name,
            "count": len(plays),
            "plays": [
                {
                    "notation": play.notation,
                    "score": play.score,
                    "words": [w.upper() for w, _ in game.preview(play.play).words],
                    "bingo": play.bingo,
                    "tiles": play.tiles_used,
                }
                for play in shown
            ],
            "blank_swaps": [{"notation": s.notation, "score": s.score} for s in blank],
            "exchange_allowed": bool(swaps),
        }
        if args.exchanges:
            document["exchanges"] = [swap.notation() for swap in swaps]
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return 0
    out.write(
        f"{game.players[game.to_move]} to move after move {after}, rack {rack}: "
        f"{len(plays)} plays\n"
    )
    for play in shown:
        words = ", ".join(f"{w} {s}" for w, s in game.preview(play.play).words)
        bingo = f", bingo {game.rules.bingo_bonus}" if play.bingo and game.rules.bingo_bonus else ""
        out.write(f"{play.score:5d}  {play.notation:<20} {words}{bingo}\n")
    for swap in blank:
        out.write(f"{swap.score:5d}  {swap.notation:<20} blank swap: {swap.letters}\n")
    if swaps:
        out.write(f"exchange allowed: {len(swaps)} distinct exchanges\n")
        if args.exchanges:
            out.write(" ".join(swap.notation() for swap in swaps) + "\n")
    else:
        out.write("exchange not allowed now\n")
    return 0


def _analyse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from rules.analysis import analyse

    setup = _movegen_setup(args, err)
    if setup is None:
        return 2
    record, generator = setup
    game = record.game
    report = analyse(game, generator)
    if args.json:
        document = {
            "players": list(game.players),
            "rules": game.rules.name,
            "turns": [
                {
                    "move": turn.index + 1,
                    "player": game.players[turn.player],
                    "rack": turn.rack,
                    "played": turn.played,
                    "played_score": turn.played_score,
                    "best": None if turn.best is None else turn.best.notation,
                    "best_word": turn.best_word,
                    "best_score": turn.best_score,
                    "missed": turn.missed,
                }
                for turn in report.turns
            ],
            "missed": dict(zip(game.players, report.missed, strict=True)),
        }
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return 0
    width = max(len(p) for p in game.players)
    for turn in report.turns:
        best = "(no play)" if turn.best is None else f"{turn.best.notation} {turn.best_score}"
        out.write(
            f"{turn.index + 1:3d}  {game.players[turn.player]:<{width}}  {turn.rack:<8} "
            f"{turn.played:<18} {turn.played_score:4d}  best {best:<24} "
            f"missed {turn.missed}\n"
        )
    for player, missed in zip(game.players, report.missed, strict=True):
        out.write(f"{player}: {missed} points left on the table\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
