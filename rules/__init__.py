"""Bordpunt's rules engine: the game of Scrabble as the Dutch clubs play it.

Pure Python 3.11; its one runtime dependency is ``marisa-trie`` (a C extension), which
holds the word lists (:mod:`rules.lexicon`). It imports nothing from Django or the
Bordpunt apps (they call it, never the other way round). In the spirit of
python-chess: small value types (:class:`Play`, :class:`Exchange`, ...), a
:class:`Game` with ``push``/``pop``, notation via :func:`parse_move` and
``Move.notation()``, and errors that are ``ValueError`` subclasses with a stable
``code`` for translation.

>>> from rules import Game, GOUDS_8, DUTCH, parse_move
>>> game = Game(rules=GOUDS_8, tiles=DUTCH, players=("Ans", "Bert"))
>>> game.push(parse_move("H7 KAAS")).score
14
"""

from rules.board import (
    Board,
    Direction,
    Notation,
    Square,
    format_position,
    parse_position,
    parse_square,
    square_name,
)
from rules.errors import (
    MESSAGES,
    GCGError,
    IllegalMoveError,
    InvalidMoveError,
    RulesError,
    RuleSetError,
)
from rules.game import Adjustment, Game, GameResult, MoveResult, MoveWarning, WordList
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
    parse_move,
    rewrite_position,
)
from rules.ruleset import GOUDS_8, NASPA, RULE_SETS, SBNL_WEDSTRIJD, STANDARD, RuleSet, rule_set
from rules.tiles import DUTCH, ENGLISH, TILE_SETS, TileSet, tile_set

__all__ = [
    "DUTCH",
    "ENGLISH",
    "GOUDS_8",
    "MESSAGES",
    "NASPA",
    "RULE_SETS",
    "SBNL_WEDSTRIJD",
    "STANDARD",
    "TILE_SETS",
    "TURN_MOVES",
    "Adjustment",
    "Annul",
    "BlankSwap",
    "Board",
    "Challenge",
    "Direction",
    "EndRack",
    "Exchange",
    "FlagFall",
    "GCGError",
    "Game",
    "GameResult",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveResult",
    "MoveWarning",
    "Notation",
    "Pass",
    "Play",
    "RuleSet",
    "RuleSetError",
    "RulesError",
    "Square",
    "TileSet",
    "TimePenalty",
    "WordList",
    "format_position",
    "parse_move",
    "parse_position",
    "parse_square",
    "rewrite_position",
    "rule_set",
    "square_name",
    "tile_set",
]
