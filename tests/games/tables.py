"""Games at tables of 3 and 4 for the board's tests: the table itself, and a whole game the
engine plays against itself from a seeded bag (so that a test can enter, or write as GCG,
a real game that ends by a player going out, with every rack known)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import rules
from rules.lexicon import Lexicon
from rules.movegen import MoveGenerator
from tests.factories import EntrantFactory, GameFactory, PlayerFactory, RoundFactory

NAMES = ("Anna", "Bert", "Cor", "Dirk")


def table_game(competition, count: int = 4, ruleset: rules.RuleSet = rules.STANDARD, **fields):
    """A pending game of `count` entered players (Anna, Bert, Cor, Dirk in table order) in a
    round of its own, played by `ruleset`; `starter` a position, or "" for not drawn yet."""
    players = []
    for name in NAMES[:count]:
        entrant = competition.entrants.filter(player__name=name).first()
        if entrant is None:
            entrant = EntrantFactory(competition=competition, player=PlayerFactory(name=name))
        players.append(entrant.player)
    fields.setdefault("starter", 0)
    return GameFactory(
        round=RoundFactory(competition=competition),
        players=players,
        rules=ruleset.to_dict(),
        **fields,
    )


@dataclass(frozen=True)
class Played:
    """A finished self-played game: each turn as (seat, notation, rack before it), the
    tiles left on each rack at the end, and the engine that played it."""

    turns: list[tuple[int, str, str]]
    left: list[str]
    engine: rules.Game


def self_played(count: int, seed: int, *, names=NAMES, starter: int = 0) -> Played:
    """The best-scoring play every turn (a pass when there is none) from a shuffled Dutch
    bag, under the standard rules, until the game ends."""
    ruleset = rules.STANDARD
    game = rules.Game(
        rules=ruleset,
        tiles=rules.DUTCH,
        players=names[:count],
        lexicon=Lexicon.default(ruleset.lexicon),
        first_player=starter,
    )
    rng = random.Random(seed)
    bag = list(rules.DUTCH.bag().elements())
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(ruleset.rack_size)] for _ in range(count)]
    generator = MoveGenerator.for_game(game)
    turns = []
    while not game.is_over:
        seat = game.to_move
        rack = "".join(racks[seat])
        best = generator.best_move(game, rack)
        move = best.move if best is not None else rules.parse_move("-")
        result = game.push(move, rack=rack, player=seat)
        turns.append((seat, result.notation or move.notation(), rack))
        for _row, _col, letter in result.placed:
            racks[seat].remove("?" if letter.islower() else letter)
        while len(racks[seat]) < ruleset.rack_size and bag:
            racks[seat].append(bag.pop())
    return Played(turns, ["".join(rack) for rack in racks], game)
