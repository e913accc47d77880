"""Game analysis: for every turn whose rack is known, the best play and what was missed.

Pure Python: this module imports nothing from Django. :func:`analyse` replays a game's
moves in a fresh :class:`rules.Game` and, before each turn with a known rack, asks the
move generator for the highest-scoring play. "Best" means highest score this turn
(what the players call "punten laten liggen"); it does not weigh the leave or the
opponent's chances, as a simulation engine would.

The played move's score is what the turn finally earned: a play that was challenged
off counts for what was left of it (0, or less under a penalty rule). ``missed`` is the
best score minus that, never below zero: an uncaught phony that outscored every listed
play has missed nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.game import Game, MoveResult
from rules.move import TURN_MOVES, Challenge
from rules.movegen import GeneratedPlay, MoveGenerator

__all__ = ["GameAnalysis", "TurnAnalysis", "analyse"]


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One analysed turn. ``index`` is the move's position in the game's history."""

    index: int
    player: int
    rack: str
    played: str
    played_score: int
    best: GeneratedPlay | None
    best_words: tuple[tuple[str, int], ...]
    #: The best play's main word spelled out (through-letters filled in).
    best_word: str

    @property
    def best_score(self) -> int:
        return self.best.score if self.best is not None else 0

    @property
    def missed(self) -> int:
        """Points left on the table this turn (0 when the played move was best)."""
        return max(0, self.best_score - self.played_score)


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    players: tuple[str, ...]
    turns: tuple[TurnAnalysis, ...]

    def missed_by(self, player: int) -> int:
        """Total points ``player`` left on the table over the analysed turns."""
        return sum(t.missed for t in self.turns if t.player == player)

    @property
    def missed(self) -> tuple[int, ...]:
        return tuple(self.missed_by(p) for p in range(len(self.players)))


def analyse(game: Game, generator: MoveGenerator | None = None) -> GameAnalysis:
    """Analyse every turn of ``game`` (its history) whose rack is known."""
    generator = generator or MoveGenerator.for_game(game)
    history = game.history
    fresh = Game(
        rules=game.rules,
        tiles=game.tiles,
        players=game.players,
        first_player=game.first_player,
    )
    turns: list[TurnAnalysis] = []
    for index, result in enumerate(history):
        move = result.move
        if isinstance(move, TURN_MOVES) and result.rack and result.is_turn:
            best = generator.best(fresh, result.rack)
            words: tuple[tuple[str, int], ...] = ()
            word = ""
            if best is not None:
                words = fresh.preview(best.play, rack=result.rack).words
                word = best.main_word(fresh)
            turns.append(
                TurnAnalysis(
                    index=index,
                    player=result.player,
                    rack=result.rack,
                    played=result.notation,
                    played_score=result.score + _taken_back(history, index),
                    best=best,
                    best_words=words,
                    best_word=word,
                )
            )
        fresh.push(move, rack=result.rack)
    return GameAnalysis(game.players, tuple(turns))


def _taken_back(history: Sequence[MoveResult], index: int) -> int:
    """The score change of an upheld challenge right after the play at ``index``."""
    following = history[index + 1] if index + 1 < len(history) else None
    if (
        following is not None
        and isinstance(following.move, Challenge)
        and not following.move.valid
        and following.player == history[index].player
    ):
        return int(following.score)
    return 0
