"""What the board and replay pages show, built from a replayed game: squares with their
premiums and tiles, the scoresheet with running totals, whose turn it is, unseen tiles."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import rules
from games.engine import SIDES, Replay
from games.models import Game, Move
from rules.board import SIZE, premium, square_name


@dataclass(frozen=True)
class SquareView:
    name: str
    letter: str
    value: int | None
    is_blank: bool
    premium: str
    state: str  # "", "last" (placed by the last move) or "preview"


@dataclass(frozen=True)
class SheetLine:
    move: Move
    player_name: str
    is_current: bool


@dataclass(frozen=True)
class BoardView:
    game: Game
    rows: list[list[SquareView]]
    columns: str
    lines: list[SheetLine]
    scores: tuple[int, ...]
    to_move: int | None
    turns: tuple[int, ...]
    turn_limit: int | None
    bag_size: int
    unseen: str
    is_over: bool
    result: rules.GameResult | None
    pending_end_racks: tuple[int, ...]
    ruleset: rules.RuleSet
    names: tuple[str, str]

    @property
    def to_move_name(self) -> str | None:
        return None if self.to_move is None else self.names[self.to_move]

    @property
    def to_move_side(self) -> str | None:
        return None if self.to_move is None else SIDES[self.to_move]

    @property
    def problems(self) -> list[SheetLine]:
        return [line for line in self.lines if line.move.problem]


def squares(
    board: rules.Board,
    tiles: rules.TileSet,
    *,
    highlight: Iterable[tuple[int, int, str]] = (),
    state: str = "last",
) -> list[list[SquareView]]:
    marked = {(row, col): letter for row, col, letter in highlight}
    rows = []
    for row in range(SIZE):
        line = []
        for col in range(SIZE):
            letter = board.letter(row, col) or marked.get((row, col), "")
            line.append(
                SquareView(
                    name=square_name(row, col),
                    letter=letter.upper(),
                    value=None if not letter or letter.islower() else tiles.value(letter),
                    is_blank=bool(letter) and letter.islower(),
                    premium=(premium(row, col) or "").lower(),
                    state=state if (row, col) in marked else "",
                )
            )
        rows.append(line)
    return rows


def board_view(
    game: Game,
    moves: Sequence[Move],
    replayed: Replay,
    *,
    preview: rules.MoveResult | None = None,
    upto: int | None = None,
) -> BoardView:
    """The board after all moves (or after move `upto`, for the replay page)."""
    current = replayed.engine
    if upto is not None:
        while len(current.history) > upto:
            current.pop()
    history = current.history
    last_placed = history[-1].placed if history else ()
    if preview is not None:
        rows = squares(current.board, current.tiles, highlight=preview.placed, state="preview")
    else:
        rows = squares(current.board, current.tiles, highlight=last_placed)
    names = (game.player_a.name, game.player_b.name if game.player_b else "")
    result = current.result
    return BoardView(
        game=game,
        rows=rows,
        columns="ABCDEFGHIJKLMNO",
        lines=[
            SheetLine(
                move=move, player_name=names[SIDES.index(move.side)], is_current=move.number == upto
            )
            for move in moves
        ],
        scores=current.scores,
        to_move=current.to_move,
        turns=tuple(current.turns_taken(player) for player in range(2)),
        turn_limit=current.rules.turn_limit,
        bag_size=current.bag_size,
        unseen=current.unseen_tiles(),
        # Over only once the end racks are in: until then the board asks for them.
        is_over=current.is_over and not current.pending_end_racks(),
        result=result,
        pending_end_racks=current.pending_end_racks(),
        ruleset=current.rules,
        names=names,
    )
