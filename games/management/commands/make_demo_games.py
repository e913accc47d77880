"""Write the demo games: complete Gouds 8 games of real Dutch words, as GCG files.

A small move finder (best-scoring play from the rack through one tile on the board, every
word formed checked against the lexicon) plays both sides from a seeded bag. The files in
games/demo/ were made with this command; `seed_demo` enters them move by move.
"""

import random
from collections import defaultdict
from itertools import combinations
from pathlib import Path

from django.core.management.base import BaseCommand

import rules
from rules import gcg
from rules.board import Direction
from rules.lexicon import Lexicon

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
NAMES = [
    ("Anke de Vries", "Bram Jansen"),
    ("Carla Bakker", "Dirk Visser"),
    ("Els Smit", "Frank Meijer"),
    ("Greet de Boer", "Hans Mulder"),
]


class Command(BaseCommand):
    help = "Write complete Gouds 8 demo games (real Dutch words) to games/demo/*.gcg."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--count", type=int, default=len(NAMES))
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, count: int, seed: int, **options) -> None:
        # Words from the standard list (no names or abbreviations): ordinary Dutch words,
        # all of them valid under Gouds 8 too.
        lexicon = Lexicon.default("standard")
        anagrams = _anagrams(word for word in lexicon if len(word) <= 9)
        DEMO_DIR.mkdir(exist_ok=True)
        for number in range(count):
            game = play_game(
                random.Random(seed + number),
                NAMES[number % len(NAMES)],
                lexicon,
                anagrams,
                every_kind_of_turn=number == 0,
            )
            path = DEMO_DIR / f"demo-{number + 1}.gcg"
            path.write_text(gcg.write(game), encoding="utf-8")
            self.stdout.write(
                f"{path.name}: {game.scores[0]}–{game.scores[1]}, {len(game.history)} moves"
            )


def _anagrams(words) -> dict[str, list[str]]:
    index: dict[str, list[str]] = defaultdict(list)
    for word in words:
        index["".join(sorted(word))].append(word)
    return index


def play_game(
    rng: random.Random, names, lexicon, anagrams, *, every_kind_of_turn: bool = False
) -> rules.Game:
    """Both sides play the best play found. With `every_kind_of_turn` the game also has
    an exchange, a blank played and later swapped, and a challenge of a valid word."""
    game = rules.Game(rules=rules.GOUDS_8, tiles=rules.DUTCH, players=names, lexicon=lexicon)
    bag = list(rules.DUTCH.bag().elements())
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(8)] for _ in names]
    if every_kind_of_turn and "?" not in racks[0]:
        # The first player holds a blank from the start.
        blank = bag.index("?")
        bag[blank], racks[0][0] = racks[0][0], bag[blank]
    challenged = False
    while not game.is_over:
        player = game.to_move
        assert player is not None  # the game is not over
        rack = racks[player]
        turn = game.turns_taken(player)
        if every_kind_of_turn and player == 0 and not challenged and turn == 3:
            # The second player challenges the first player's last word, which is valid:
            # under Gouds 8 the challenger loses the next turn.
            game.push(rules.Challenge(valid=True))
            challenged = True
            continue
        if every_kind_of_turn and player == 0:
            swap = _blank_swap(game, rack)
            if swap is not None:
                game.push(swap, rack="".join(rack))
                for row, col in swap.squares:
                    rack.remove(game.board.letter(row, col))
                    rack.append("?")
                continue
        use_blank = every_kind_of_turn and player == 0 and turn == 1
        move = None
        if not (every_kind_of_turn and player == 1 and turn == 1):
            move = best_play(game, rack, anagrams, rng, use_blank=use_blank)
        if move is None:
            count = min(3, len(rack))
            returned = rng.sample(rack, count)
            move = rules.Exchange(tiles="".join(returned))
            game.push(move, rack="".join(rack))
            for tile in returned:
                rack.remove(tile)
            rack += [bag.pop() for _ in range(count)]
            bag += returned
            rng.shuffle(bag)
            continue
        result = game.push(move, rack="".join(rack))
        for _row, _col, letter in result.placed:
            rack.remove("?" if letter.islower() else letter)
        while len(rack) < 8 and bag:
            rack.append(bag.pop())
    return game


def _blank_swap(game: rules.Game, rack: list[str]) -> rules.BlankSwap | None:
    board = game.board
    for row in range(15):
        for col in range(15):
            letter = board.letter(row, col)
            if letter and letter.islower() and letter.upper() in rack:
                return rules.BlankSwap(((row, col),))
    return None


def best_play(
    game: rules.Game, rack: list[str], anagrams, rng: random.Random, *, use_blank: bool = False
):
    board = game.board
    anchors = [
        (r, c, board.letter(r, c).upper())
        for r in range(15)
        for c in range(15)
        if board.letter(r, c)
    ]
    if not anchors:
        anchors = [(7, 7, "")]
    subsets = {tuple(sorted(s)) for size in range(1, 8) for s in combinations(rack, size)}
    found = []
    for subset in subsets:
        if ("?" in subset) != use_blank or subset.count("?") > 1:
            continue
        for stand_in in "EN" if "?" in subset else "?":
            letters = tuple(stand_in if tile == "?" else tile for tile in subset)
            for row, col, letter in anchors:
                key = "".join(sorted(letters + ((letter,) if letter else ())))
                for word in anagrams.get(key, ()):
                    if "?" in subset:
                        at = word.find(stand_in)
                        word = word[:at] + stand_in.lower() + word[at + 1 :]
                    for move in _placements(word, row, col, letter):
                        found.append(move)
    best, best_score = None, 0
    rng.shuffle(found)
    for move in found[:4000]:
        try:
            result = game.preview(move, rack="".join(rack))
        except rules.RulesError:
            continue
        if result.warnings:
            continue
        if result.score > best_score:
            best, best_score = move, result.score
    return best


def _placements(word: str, row: int, col: int, letter: str):
    if not letter:  # first move: through H8, across
        for start in range(max(0, 8 - len(word)), 8):
            if start + len(word) <= 15:
                yield rules.Play(7, start, Direction.ACROSS, word)
        return
    for index, char in enumerate(word):
        if char != letter:  # a blank (lowercase) never stands for the anchor
            continue
        marked = word[:index] + "." + word[index + 1 :]
        if col - index >= 0 and col - index + len(word) <= 15:
            yield rules.Play(row, col - index, Direction.ACROSS, marked)
        if row - index >= 0 and row - index + len(word) <= 15:
            yield rules.Play(row - index, col, Direction.DOWN, marked)
