"""The adapter between a game's Move rows and the rules engine.

Replays the scoresheet through rules.Game: every score, word and warning shown on the
pages comes from here, never from what someone typed as a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import rules
from clubs import word_lists
from games.models import Game, Move
from games.rule_messages import coded, coded_error


def ruleset_of(game: Game) -> rules.RuleSet:
    """The rule set the game was paired under (kept on the game when it was created)."""
    return rules.RuleSet.from_dict(game.rules) if game.rules else rules.GOUDS_8


def new_engine(game: Game) -> rules.Game:
    ruleset = ruleset_of(game)
    return rules.Game(
        rules=ruleset,
        tiles=rules.DUTCH,
        players=names_at_table(game),
        lexicon=word_lists.lexicon(ruleset),
        first_player=game.starter or 0,
    )


def names_at_table(game: Game) -> tuple[str, ...]:
    """The players' names in table order; a bye's board (never played) has a blank second."""
    names = tuple(player.name for player in game.players)
    return names if len(names) > 1 else (*names, "—")


def parse(notation: str, seat: int) -> rules.Move:
    return rules.parse_move(notation, player=seat)


@dataclass
class Replay:
    """A game's moves replayed: the engine at the end, and each row's outcome."""

    engine: rules.Game
    results: list[rules.MoveResult | None] = field(default_factory=list)
    #: Refused moves by number: ``{"code": ..., "params": ...}`` (games.rule_messages).
    problems: dict[int, dict] = field(default_factory=dict)


def replay(game: Game, moves: Sequence[Move]) -> Replay:
    """Push every move in order. The first move the engine refuses (after a correction
    of an earlier move) gets its reason; the moves after it wait until it is fixed, since
    whose turn each of them was depends on it."""
    engine = new_engine(game)
    outcome = Replay(engine=engine)
    refused: int | None = None
    for row in moves:
        if refused is not None:
            outcome.results.append(None)
            outcome.problems[row.number] = coded("not_scored_until", {"number": refused})
            continue
        try:
            move = parse(row.notation, row.seat)
            result = engine.push(move, rack=row.rack or None, player=mover(move, row.seat))
        except rules.RulesError as error:
            outcome.results.append(None)
            outcome.problems[row.number] = coded_error(error)
            refused = row.number
        else:
            outcome.results.append(result)
    return outcome


def mover(move: rules.Move, seat: int) -> int | None:
    """The player the engine should check is to move; None for the moves that are not
    a turn of the player to move (challenges, flag falls, end racks)."""
    if isinstance(move, rules.TURN_MOVES):
        return seat
    return None
