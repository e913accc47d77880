"""``python -m rules duplicate``: the master game of a duplicate evening from a bag order.

Pure Python: this module imports nothing from Django. Prints per turn the rack, the top
score, every play with that score in board notation (``8H WOORD``, the whole word, blanks
lowercase), the play chosen (:func:`rules.duplicate.default_choice`) and the running
total of the tops; then how the game ended. ``--json`` prints the same as one document.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from rules.board import SIZE
from rules.duplicate import NTSV, DrawRules, DuplicateGame, bag_order, play_bag
from rules.errors import RulesError
from rules.game import Game
from rules.movegen import GeneratedPlay
from rules.ruleset import RULE_SETS, rule_set
from rules.tiles import TILE_SETS, tile_set

#: How each ending reads in the text output.
ENDINGS = {
    "too_few_tiles": "fewer tiles left than the draw rules allow",
    "no_vowel": "no vowel left to draw",
    "one_kind": "the tiles left are all vowels or all consonants (or only one is left)",
    "no_valid_draw": "no draw left that meets the minimum of vowels and consonants",
    "no_play": "no word can be made with the rack",
}


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("duplicate", help="play a duplicate master game from a bag order")
    parser.add_argument(
        "--bag",
        default="",
        help="the bag order, drawn from the left (? = blank); tiles not written follow "
        "in alphabetical order",
    )
    parser.add_argument(
        "--seed", type=int, help="shuffle the tiles not written with this seed (reproducible)"
    )
    parser.add_argument("--rules", choices=sorted(RULE_SETS), default="standard")
    parser.add_argument("--tiles", choices=sorted(TILE_SETS), default="dutch")
    parser.add_argument(
        "--draw-rules", help="duplicate draw rules as JSON (default: the NTSV's)", default=None
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        rules = rule_set(args.rules)
        tiles = tile_set(args.tiles)
        draw_rules = NTSV
        if args.draw_rules is not None:
            try:
                data = json.loads(args.draw_rules)
            except ValueError as exc:
                print(f"--draw-rules: not JSON ({exc})", file=err)
                return 2
            draw_rules = DrawRules.from_dict(data)
        order = bag_order(args.bag, tiles, args.seed)
    except RulesError as exc:
        print(f"duplicate: {exc}", file=err)
        return 2
    try:
        game = play_bag(order, rules, tiles, draw_rules)
    except (RulesError, OSError) as exc:
        print(f"duplicate: {exc}", file=err)
        return 2
    if args.json:
        json.dump(as_json(game), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        print_text(game, out)
    return 0


def board_word(play: GeneratedPlay, board: Game) -> str:
    """``8H WOORD``: the play's position and whole main word, the letters already on
    the board filled in from ``board`` (the position before the play); blanks lowercase."""
    cells = board._cells
    step = SIZE if play.down else 1
    first = play.row * SIZE + play.col
    word = "".join(cells[first + i * step] if ch == "." else ch for i, ch in enumerate(play.word))
    return f"{play.notation.split()[0]} {word}"


def as_json(game: DuplicateGame) -> dict[str, Any]:
    turns = []
    for turn, board in zip(game.turns, game.positions, strict=True):
        turns.append(
            {
                "turn": turn.number,
                "rack": turn.rack,
                "drawn": turn.drawn,
                "thrown_back": list(turn.thrown_back),
                "top": turn.score,
                "tops": [
                    {"play": board_word(p, board), "notation": p.notation, "bingo": p.bingo}
                    for p in turn.tops
                ],
                "chosen": board_word(turn.chosen, board),
                "total": turn.total,
                "returned": turn.returned,
                "blanks_replaced": [
                    {"square": f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}", "letter": letter}
                    for r, c, letter in turn.replaced
                ],
            }
        )
    return {
        "rules": game.rules.name,
        "tiles": game.tiles.name,
        "draw_rules": game.draw_rules.to_dict(),
        "turns": turns,
        "total": game.total,
        "ending": game.ending,
    }


def print_text(game: DuplicateGame, out: TextIO) -> None:
    for turn, board in zip(game.turns, game.positions, strict=True):
        tops = ", ".join(board_word(p, board) for p in turn.tops)
        thrown = f" (thrown back: {', '.join(turn.thrown_back)})" if turn.thrown_back else ""
        print(f"{turn.number:2d}. {turn.rack}{thrown}  top {turn.score}: {tops}", file=out)
        replaced = "".join(
            f"; blank on {'ABCDEFGHIJKLMNO'[c]}{r + 1} replaced by {letter}"
            for r, c, letter in turn.replaced
        )
        print(
            f"    chosen {board_word(turn.chosen, board)}  total {turn.total}{replaced}",
            file=out,
        )
    reason = ENDINGS.get(game.ending or "", game.ending or "")
    print(f"End after {len(game.turns)} turns ({reason}): sum of the tops {game.total}", file=out)
