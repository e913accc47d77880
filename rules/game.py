"""A game in progress: validates, scores and records moves, with push/pop.

Pure Python: this module imports nothing from Django. :class:`Game` is the central
API: ``push`` a move to get a :class:`MoveResult` (score, words, warnings), ``pop`` to
take it back, ``preview`` to see a result without keeping it. The board is a flat list
of 225 squares and every move stores only what it changed, so replaying is fast.

Racks may be unknown (a secretary copying a paper scoresheet): the engine then still
tracks how many tiles each player holds and which tiles are unseen. When a rack is
given with a move, it is checked and the move must come from it.

>>> from rules import Game, GOUDS_8, DUTCH, parse_move
>>> game = Game(rules=GOUDS_8, tiles=DUTCH, players=("Ans", "Bert"))
>>> result = game.push(parse_move("8G ZOEN"))
>>> result.score, result.words
(14, (('ZOEN', 14),))
>>> game.to_move, game.scores
(1, (14, 0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from rules.board import (
    CENTRE,
    LETTER_MULT,
    SIZE,
    WORD_MULT,
    Board,
    Direction,
    index_name,
    square_name,
)
from rules.errors import MESSAGES, IllegalMoveError
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
from rules.ruleset import GOUDS_8, RuleSet
from rules.tiles import BLANK, DUTCH, TileSet, parse_rack


class WordList(Protocol):
    """What the engine needs of a lexicon: membership of normalised uppercase words."""

    def __contains__(self, word: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class MoveWarning:
    """Something worth telling the players that does not make the move illegal."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def message(self) -> str:
        return MESSAGES[self.code].format(**dict(self.params))

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one pushed move did. ``total`` is ``player``'s running total after it."""

    move: Move
    player: int
    score: int
    total: int
    #: Every new word formed, main word first, with its score (bingo bonus not included).
    words: tuple[tuple[str, int], ...] = ()
    warnings: tuple[MoveWarning, ...] = ()
    #: New tiles as ``(row, col, letter)``; a blank is a lowercase letter.
    placed: tuple[tuple[int, int, str], ...] = ()
    #: The rack the move was made from, when known.
    rack: str | None = None
    bingo: bool = False
    #: True when the move used the player's turn (counts toward a turn limit).
    is_turn: bool = True
    #: GCG-style notation, e.g. ``8H JAVE..N``.
    notation: str = ""

    @property
    def kind(self) -> str:
        """``play``, ``exchange``, ``pass``, ``blank_swap``, ``challenge``, ``time_penalty``,
        ``flag_fall``, ``annul``, ``end_rack`` or ``lost_turn``."""
        if isinstance(self.move, Challenge) and self.is_turn:
            return "lost_turn"
        return _KINDS[type(self.move)]


_KINDS: dict[type, str] = {
    Play: "play",
    Exchange: "exchange",
    Pass: "pass",
    BlankSwap: "blank_swap",
    Challenge: "challenge",
    TimePenalty: "time_penalty",
    FlagFall: "flag_fall",
    Annul: "annul",
    EndRack: "end_rack",
}


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An end-of-game rack adjustment: ``score`` for ``player`` because of ``tiles``."""

    player: int
    tiles: str
    score: int
    total: int

    @property
    def notation(self) -> str:
        return f"({self.tiles})"


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of a finished game."""

    #: Final board points, end adjustments included.
    scores: tuple[int, ...]
    #: Index of the winner, or None for a draw or an annulled game.
    winner: int | None
    #: ``going_out``, ``scoreless_turns``, ``turn_limit``, ``flag_fall`` or ``annulled``.
    ending: str
    #: Whose flag fell, for ``ending == "flag_fall"``.
    flag_fallen: int | None = None
    #: Players whose end rack is still needed (see :class:`EndRack`) before the
    #: adjustments (and so ``scores``) are final.
    pending_end_racks: tuple[int, ...] = ()


_ACROSS = Direction.ACROSS


class _Snapshot(NamedTuple):
    """The mutable scalar state, saved whole before every move (a few small tuples) so
    pop() restores it without recomputing anything, and an upheld challenge can put
    back what the challenged play changed."""

    rack_count: tuple[int, ...]
    bag: int
    scores: tuple[int, ...]
    turns: tuple[int, ...]
    scoreless: int
    to_move: int
    placed_last: tuple[bool, ...]
    rack_after: tuple[str | None, ...]
    end_racks: tuple[str | None, ...]
    flag_fallen: int | None
    annulled: bool


_new_snapshot = tuple.__new__  # skips NamedTuple's Python-level __new__ on the hot path


class Game:
    """One game: board, scores and the moves so far.

    ``players`` are display names; players are referred to by index (0-based) in
    results. ``lexicon`` is anything supporting ``word in lexicon`` for uppercase
    words; None means words are not checked. ``first_player`` is who moves first.
    """

    def __init__(
        self,
        rules: RuleSet = GOUDS_8,
        tiles: TileSet = DUTCH,
        players: Sequence[str] = ("A", "B"),
        lexicon: WordList | None = None,
        first_player: int = 0,
    ) -> None:
        players = tuple(players)
        if not rules.players_min <= len(players) <= rules.players_max:
            raise IllegalMoveError(
                "bad_players",
                rules=rules.name,
                min=rules.players_min,
                max=rules.players_max,
                count=len(players),
            )
        if not 0 <= first_player < len(players):
            raise IllegalMoveError("bad_player", player=first_player)
        self.rules = rules
        self.tiles = tiles
        self.players: tuple[str, ...] = players
        self.lexicon = lexicon
        self.first_player = first_player
        n = len(players)
        self._cells: list[str] = [""] * (SIZE * SIZE)
        self._on_board: dict[str, int] = {}
        self._n_on_board = 0
        self._values = tiles._values
        # Everyone draws a full rack at the start, as far as the bag allows.
        bag = tiles.total
        racks = []
        for _ in range(n):
            draw = min(rules.rack_size, bag)
            racks.append(draw)
            bag -= draw
        self._rack_count: list[int] = racks
        self._bag = bag
        self._scores: list[int] = [0] * n
        self._turns: list[int] = [0] * n
        self._scoreless = 0
        self._to_move = first_player
        self._placed_last: list[bool] = [False] * n
        # Known rack held after the player's last move, when it drew nothing after it.
        self._rack_after: list[str | None] = [None] * n
        self._end_racks: tuple[str | None, ...] = (None,) * n
        self._flag_fallen: int | None = None
        self._annulled = False
        self._history: list[MoveResult] = []
        self._undo: list[tuple[_Snapshot, list[tuple[int, str]]]] = []

    # ------------------------------------------------------------------ state

    @property
    def board(self) -> Board:
        """The board (a live read-only view)."""
        return Board(self._cells)

    @property
    def history(self) -> tuple[MoveResult, ...]:
        """Every pushed move's result, in order."""
        return tuple(self._history)

    @property
    def moves(self) -> list[Move]:
        return [r.move for r in self._history]

    @property
    def bag_size(self) -> int:
        """Tiles left in the bag (known even when racks are not)."""
        return self._bag

    @property
    def rack_sizes(self) -> tuple[int, ...]:
        """How many tiles each player holds."""
        return tuple(self._rack_count)

    @property
    def to_move(self) -> int | None:
        """Index of the player to move, or None when the game is over."""
        return None if self.is_over else self._to_move

    def turns_taken(self, player: int) -> int:
        """Turns ``player`` has used (plays, exchanges, passes, swaps, lost turns)."""
        return self._turns[player]

    @property
    def ending(self) -> str | None:
        """Why the game is over (see :class:`GameResult`), or None while it runs."""
        if self._annulled:
            return "annulled"
        if self._flag_fallen is not None:
            return "flag_fall"
        rules = self.rules
        limit = rules.turn_limit
        if limit is not None and min(self._turns) >= limit:
            return "turn_limit"
        if (
            rules.end_going_out
            and self._bag == 0
            and 0 in self._rack_count
            and (not rules.end_going_out_equal_turns or len(set(self._turns)) == 1)
        ):
            return "going_out"
        if (
            rules.end_scoreless_turns is not None
            and self._scoreless >= rules.end_scoreless_turns * len(self.players)
        ):
            return "scoreless_turns"
        return None

    @property
    def is_over(self) -> bool:
        return self.ending is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """Current board points; once the game is over, end adjustments included."""
        scores = list(self._scores)
        for adj in self.adjustments:
            scores[adj.player] += adj.score
        return tuple(scores)

    def unseen_tiles(self, rack: str | None = None) -> str:
        """Tiles not on the board (nor in ``rack``, if given): the bag plus the other
        racks, sorted, blanks as ``?`` at the end.

        >>> len(Game().unseen_tiles())
        102
        """
        unseen = self._unseen()
        if rack:
            unseen.subtract(parse_rack(rack, self.tiles))
        return "".join(sorted((+unseen).elements(), key=lambda t: (t == BLANK, t)))

    def _unseen(self) -> Counter[str]:
        unseen = self.tiles.bag()
        unseen.subtract(self._on_board)
        return unseen

    # ------------------------------------------------------------- end of game

    def _known_end_racks(self) -> list[str | None]:
        n = len(self.players)
        racks: list[str | None] = [None] * n
        for p in range(n):
            declared = self._end_racks[p]
            after = self._rack_after[p]
            if declared is not None:
                racks[p] = declared
            elif self._rack_count[p] == 0:
                racks[p] = ""
            elif after is not None and len(after) == self._rack_count[p]:
                racks[p] = after
        unknown = [p for p in range(n) if racks[p] is None]
        if self._bag == 0 and len(unknown) == 1:
            # With the bag empty every unseen tile is on some rack.
            rest = self._unseen()
            for p in range(n):
                if racks[p]:
                    rest.subtract(racks[p])
            racks[unknown[0]] = "".join(sorted((+rest).elements(), key=_rack_key))
        return racks

    def pending_end_racks(self) -> tuple[int, ...]:
        """Players whose end rack must be given (as :class:`EndRack`) before the end
        adjustment can be made. Empty while the game runs or when none is needed."""
        if self.ending not in ("going_out", "scoreless_turns", "turn_limit"):
            return ()
        if self.rules.end_adjustment == "none":
            return ()
        return tuple(p for p, r in enumerate(self._known_end_racks()) if r is None)

    @property
    def adjustments(self) -> tuple[Adjustment, ...]:
        """End-of-game rack adjustments per the rule set (empty until the game is over
        and every rack involved is known)."""
        kind = self.rules.end_adjustment
        if kind == "none" or self.ending not in ("going_out", "scoreless_turns", "turn_limit"):
            return ()
        racks = self._known_end_racks()
        if any(r is None for r in racks):
            return ()
        value = self.tiles.rack_value
        out = None
        if self.ending == "going_out":
            out = next((p for p in range(len(racks)) if not racks[p]), None)
        entries: list[tuple[int, str, int]] = []
        if out is not None and kind in ("subtract_add", "double"):
            others = "".join(r for p, r in enumerate(racks) if p != out and r)
            total = sum(value(r) for p, r in enumerate(racks) if p != out and r)
            if kind == "subtract_add":
                entries += [(p, r, -value(r)) for p, r in enumerate(racks) if p != out and r]
                entries.append((out, others, total))
            else:
                entries.append((out, others, 2 * total))
        else:
            entries += [(p, r, -value(r)) for p, r in enumerate(racks) if r]
        running = list(self._scores)
        result = []
        for p, tiles, score in entries:
            running[p] += score
            tiles_sorted = "".join(sorted(tiles, key=_rack_key))
            result.append(Adjustment(p, tiles_sorted, score, running[p]))
        return tuple(result)

    @property
    def result(self) -> GameResult | None:
        """The outcome, or None while the game runs."""
        ending = self.ending
        if ending is None:
            return None
        scores = self.scores
        winner: int | None = None
        if ending == "annulled":
            winner = None
        elif ending == "flag_fall":
            others = [p for p in range(len(scores)) if p != self._flag_fallen]
            best = max(scores[p] for p in others)
            leaders = [p for p in others if scores[p] == best]
            winner = leaders[0] if len(leaders) == 1 else None
        else:
            best = max(scores)
            leaders = [p for p in range(len(scores)) if scores[p] == best]
            winner = leaders[0] if len(leaders) == 1 else None
        return GameResult(scores, winner, ending, self._flag_fallen, self.pending_end_racks())

    # -------------------------------------------------------------- push / pop

    def push(self, move: Move, *, rack: str | None = None, player: int | None = None) -> MoveResult:
        """Validate, score and record ``move``; return its :class:`MoveResult`.

        ``rack``: the mover's rack before the move, when known (checked). ``player``:
        if given, must be the player to move (else ``wrong_player``). Raises
        :class:`IllegalMoveError` (with a ``code``) and changes nothing if illegal.
        """
        snapshot = self._snapshot()
        changes: list[tuple[int, str]] = []
        result = self._apply(move, rack, player, changes)
        self._history.append(result)
        self._undo.append((snapshot, changes))
        return result

    def pop(self) -> MoveResult:
        """Take back the last move and return its result."""
        result = self._history.pop()
        snapshot, changes = self._undo.pop()
        cells = self._cells
        on_board = self._on_board
        for idx, old in reversed(changes):
            current = cells[idx]
            if current:
                key = BLANK if current.islower() else current
                on_board[key] -= 1
                self._n_on_board -= 1
            if old:
                key = BLANK if old.islower() else old
                on_board[key] = on_board.get(key, 0) + 1
                self._n_on_board += 1
            cells[idx] = old
        self._restore(snapshot)
        return result

    def preview(
        self, move: Move, *, rack: str | None = None, player: int | None = None
    ) -> MoveResult:
        """The result ``push`` would give, without keeping the move."""
        result = self.push(move, rack=rack, player=player)
        self.pop()
        return result

    def validate(self, move: Move, *, rack: str | None = None, player: int | None = None) -> None:
        """Raise :class:`IllegalMoveError` if ``move`` is not allowed now."""
        self.preview(move, rack=rack, player=player)

    def is_legal(self, move: Move, *, rack: str | None = None) -> bool:
        try:
            self.preview(move, rack=rack)
        except IllegalMoveError:
            return False
        return True

    def copy(self) -> Game:
        """An independent copy, history included."""
        # Field by field, not through __dict__: the compiled engine (mypyc, see
        # docs/deployment.md) keeps attributes in slots and has no __dict__.
        other = Game.__new__(Game)
        other.rules = self.rules
        other.tiles = self.tiles
        other.players = self.players
        other.lexicon = self.lexicon
        other.first_player = self.first_player
        other._cells = list(self._cells)
        other._on_board = dict(self._on_board)
        other._n_on_board = self._n_on_board
        other._values = self._values
        other._rack_count = list(self._rack_count)
        other._bag = self._bag
        other._scores = list(self._scores)
        other._turns = list(self._turns)
        other._scoreless = self._scoreless
        other._to_move = self._to_move
        other._placed_last = list(self._placed_last)
        other._rack_after = list(self._rack_after)
        other._end_racks = self._end_racks
        other._flag_fallen = self._flag_fallen
        other._annulled = self._annulled
        other._history = list(self._history)
        other._undo = list(self._undo)
        return other

    @classmethod
    def replay(
        cls,
        moves: Iterable[Move | tuple[Move, str | None]],
        **kwargs: Any,
    ) -> Game:
        """A new game (``kwargs`` as for :class:`Game`) with ``moves`` pushed in order;
        an item may be ``(move, rack)``."""
        game = cls(**kwargs)
        for item in moves:
            if isinstance(item, tuple):
                game.push(item[0], rack=item[1])
            else:
                game.push(item)
        return game

    def make_play(self, tiles: Iterable[tuple[int, int, str]]) -> Play:
        """Build a :class:`Play` from new tiles put on squares, as on a board screen.

        ``tiles`` are ``(row, col, letter)``; lowercase = blank. Raises
        ``not_in_line``, ``gap``, ``square_occupied`` or ``no_tiles``.
        """
        placed = {(r, c): letter for r, c, letter in tiles}
        if not placed:
            raise IllegalMoveError("no_tiles")
        cells = self._cells
        for (r, c), _letter in placed.items():
            if not (0 <= r < SIZE and 0 <= c < SIZE):
                raise IllegalMoveError("off_board", square=f"{r},{c}")
            if cells[r * SIZE + c]:
                raise IllegalMoveError(
                    "square_occupied", square=square_name(r, c), letter=cells[r * SIZE + c].upper()
                )
        rows = {r for r, _ in placed}
        cols = {c for _, c in placed}
        if len(rows) > 1 and len(cols) > 1:
            raise IllegalMoveError("not_in_line")
        if len(rows) == 1 and len(cols) == 1:
            # One tile: take the direction in which it forms a word.
            (r, c) = next(iter(placed))
            horizontal = (c > 0 and cells[r * SIZE + c - 1]) or (
                c < SIZE - 1 and cells[r * SIZE + c + 1]
            )
            direction = Direction.ACROSS if horizontal else Direction.DOWN
        else:
            direction = Direction.ACROSS if len(rows) == 1 else Direction.DOWN

        def at(r: int, c: int) -> str | None:
            if (r, c) in placed:
                return placed[(r, c)]
            tile = cells[r * SIZE + c]
            return None if not tile else "."

        if direction is Direction.ACROSS:
            r = next(iter(rows))
            lo, hi = min(cols), max(cols)
            while lo > 0 and cells[r * SIZE + lo - 1]:
                lo -= 1
            while hi < SIZE - 1 and cells[r * SIZE + hi + 1]:
                hi += 1
            squares = [(r, c) for c in range(lo, hi + 1)]
        else:
            c = next(iter(cols))
            lo, hi = min(rows), max(rows)
            while lo > 0 and cells[(lo - 1) * SIZE + c]:
                lo -= 1
            while hi < SIZE - 1 and cells[(hi + 1) * SIZE + c]:
                hi += 1
            squares = [(r, c) for r in range(lo, hi + 1)]
        word = []
        for r, c in squares:
            letter = at(r, c)
            if letter is None:
                raise IllegalMoveError("gap", square=square_name(r, c))
            word.append(letter)
        r0, c0 = squares[0]
        return Play(r0, c0, direction, "".join(word))

    def put_real_tile(self, row: int, col: int) -> None:
        """Replace the blank on ``(row, col)`` by the real tile of its letter, as a
        duplicate game's spelleider does (:mod:`rules.duplicate`): later words through
        the square score the letter's value. Kept with the last move, so :meth:`pop`
        takes both back. Raises ``not_a_blank`` or ``too_many_tiles``."""
        if not (0 <= row < SIZE and 0 <= col < SIZE) or not self._undo:
            raise IllegalMoveError("not_a_blank", square=f"{row},{col}")
        idx = row * SIZE + col
        tile = self._cells[idx]
        if not tile or not tile.islower():
            raise IllegalMoveError("not_a_blank", square=square_name(row, col))
        letter = tile.upper()
        if self._on_board.get(letter, 0) >= self.tiles.count(letter):
            raise IllegalMoveError(
                "too_many_tiles",
                tiles=self.tiles.name,
                count=self.tiles.count(letter),
                letter=letter,
            )
        self._set(idx, letter, self._undo[-1][1])

    # --------------------------------------------------------------- internals

    def _snapshot(self) -> _Snapshot:
        state = (
            tuple(self._rack_count),
            self._bag,
            tuple(self._scores),
            tuple(self._turns),
            self._scoreless,
            self._to_move,
            tuple(self._placed_last),
            tuple(self._rack_after),
            self._end_racks,
            self._flag_fallen,
            self._annulled,
        )
        return _new_snapshot(_Snapshot, state)

    def _restore(self, snap: _Snapshot) -> None:
        (
            racks,
            self._bag,
            scores,
            turns,
            self._scoreless,
            self._to_move,
            placed_last,
            rack_after,
            self._end_racks,
            self._flag_fallen,
            self._annulled,
        ) = snap
        self._rack_count = list(racks)
        self._scores = list(scores)
        self._turns = list(turns)
        self._placed_last = list(placed_last)
        self._rack_after = list(rack_after)

    def _name(self, player: int) -> str:
        return self.players[player]

    def _set(self, idx: int, tile: str, changes: list[tuple[int, str]]) -> None:
        cells = self._cells
        old = cells[idx]
        changes.append((idx, old))
        on_board = self._on_board
        if old:
            key = BLANK if old.islower() else old
            on_board[key] -= 1
            self._n_on_board -= 1
        if tile:
            key = BLANK if tile.islower() else tile
            on_board[key] = on_board.get(key, 0) + 1
            self._n_on_board += 1
        cells[idx] = tile

    def _apply(
        self, move: Move, rack: str | None, player: int | None, changes: list[tuple[int, str]]
    ) -> MoveResult:
        mover = self._to_move
        if player is not None:
            if not 0 <= player < len(self.players):
                raise IllegalMoveError("bad_player", player=player)
            if player != mover and not isinstance(move, (TimePenalty, EndRack, Challenge)):
                raise IllegalMoveError(
                    "wrong_player", expected=self._name(mover), player=self._name(player)
                )
        if isinstance(move, TURN_MOVES):
            ending = self.ending
            if ending is not None:
                if ending == "turn_limit":
                    raise IllegalMoveError(
                        "turn_limit", player=self._name(mover), limit=self.rules.turn_limit
                    )
                raise IllegalMoveError("game_over")
            if rack is not None:
                rack = self._check_rack(rack, mover)
        match move:
            case Play():
                return self._play(move, rack, mover, changes)
            case Exchange():
                return self._exchange(move, rack, mover)
            case Pass():
                return self._pass(move, rack, mover)
            case BlankSwap():
                return self._blank_swap(move, rack, mover, changes)
            case Challenge():
                return self._challenge(move, changes)
            case TimePenalty():
                return self._time_penalty(move)
            case FlagFall():
                return self._flag_fall(move)
            case Annul():
                return self._annul(move)
            case EndRack():
                return self._end_rack(move)
        raise TypeError(f"not a move: {move!r}")

    def _check_rack(self, rack: str, player: int) -> str:
        rack = parse_rack(rack, self.tiles)
        if len(rack) > self._rack_count[player]:
            raise IllegalMoveError("rack_too_large", size=self._rack_count[player], count=len(rack))
        self._check_tiles_exist(rack)
        return rack

    def _check_tiles_exist(self, tiles: str) -> None:
        """Refuse tiles that are not all unseen, naming the real problem: more of a
        letter than the set holds (``-ZZZ`` with one Z), or tiles already on the board."""
        wanted = Counter(tiles)
        missing = wanted - self._unseen()
        if not missing:
            return
        for tile in sorted(missing):
            if wanted[tile] > self.tiles.count(tile):
                raise IllegalMoveError(
                    "too_many_tiles",
                    tiles=self.tiles.name,
                    count=self.tiles.count(tile),
                    letter="blank" if tile == BLANK else tile,
                )
        letter = min(missing)
        raise IllegalMoveError(
            "tiles_on_board",
            tiles=tiles,
            letter=letter,
            count=self.tiles.count(letter),
            on_board=self._on_board.get(letter, 0),
        )

    def _take_from_rack(self, rack: str, tiles: Iterable[str]) -> str:
        """``rack`` minus ``tiles`` (``?`` for blanks), or ``not_in_rack``."""
        left = list(rack)
        missing = []
        for tile in tiles:
            try:
                left.remove(tile)
            except ValueError:
                missing.append(tile)
        if missing:
            raise IllegalMoveError("not_in_rack", rack=rack, missing="".join(missing))
        return "".join(left)

    def _advance(self, player: int, *, scoreless: bool, is_pass: bool) -> None:
        self._turns[player] += 1
        if self.rules.end_scoreless_kind == "passes":
            self._scoreless = self._scoreless + 1 if is_pass else 0
        else:
            self._scoreless = self._scoreless + 1 if scoreless else 0
        self._to_move = (player + 1) % len(self.players)

    def _draw(self, player: int) -> int:
        draw = min(self.rules.rack_size - self._rack_count[player], self._bag)
        if draw > 0:
            self._rack_count[player] += draw
            self._bag -= draw
        return max(draw, 0)

    # The hot path of replaying: three steps (check the placement, score it, commit it),
    # each working on locals; benchmarks/rules.py measures it.
    def _play(
        self, move: Play, rack: str | None, p: int, changes: list[tuple[int, str]]
    ) -> MoveResult:
        start, step = self._check_placement(move, p)
        rack_left = None
        if rack is not None:
            rack_left = self._take_from_rack(
                rack, [BLANK if letter.islower() else letter for _, letter in move.placed]
            )
        new = dict(move.placed)
        words, total = self._score_play(move, start, step, new)
        n_placed = len(move.placed)
        bingo = n_placed == self.rules.rack_size
        if bingo:
            total += self.rules.bingo_bonus
        warnings: tuple[MoveWarning, ...] = ()
        lexicon = self.lexicon
        if lexicon is not None:
            bad = [w for w, _ in words if w.upper() not in lexicon]
            if bad:
                warnings = tuple(MoveWarning("not_in_lexicon", (("word", w),)) for w in bad)
        placed_out = self._commit_play(move, start, step, p, rack_left, total, changes)
        notation = move.position + " " + "".join([new.get(off, ".") for off in range(move.length)])
        return MoveResult(
            move,
            p,
            total,
            self._scores[p],
            tuple(words),
            warnings,
            placed_out,
            rack,
            bingo,
            True,
            notation,
        )

    def _check_placement(self, move: Play, p: int) -> tuple[int, int]:
        """Raise the reason ``move`` cannot be placed now; else its start index and step."""
        cells = self._cells
        values = self._values
        row, col, length = move.row, move.col, move.length
        across = move.direction is _ACROSS
        step = 1 if across else SIZE
        if (col if across else row) + length > SIZE:
            raise IllegalMoveError("off_board", square=square_name(row, col))
        start = row * SIZE + col
        for off, expected in move.through:
            tile = cells[start + off * step]
            if not tile:
                raise IllegalMoveError("square_empty", square=index_name(start + off * step))
            if expected and tile.upper() != expected:
                raise IllegalMoveError(
                    "through_mismatch",
                    square=index_name(start + off * step),
                    letter=tile.upper(),
                    expected=expected,
                )
        placed = move.placed
        if not placed:
            raise IllegalMoveError("no_tiles")
        needed: dict[str, int] = {}
        for off, letter in placed:
            idx = start + off * step
            if cells[idx]:
                raise IllegalMoveError(
                    "square_occupied", square=index_name(idx), letter=cells[idx].upper()
                )
            if letter not in values:
                raise IllegalMoveError("unknown_letter", letter=letter, tiles=self.tiles.name)
            key = BLANK if letter.islower() else letter
            needed[key] = needed.get(key, 0) + 1
        if (col if across else row) > 0 and cells[start - step]:
            raise IllegalMoveError("word_extends", square=index_name(start - step))
        end = start + (length - 1) * step
        if (col if across else row) + length < SIZE and cells[end + step]:
            raise IllegalMoveError("word_extends", square=index_name(end + step))
        on_board = self._on_board
        tiles = self.tiles
        counts = tiles._counts  # the dict itself: a method call per letter shows in replay speed
        for key, n in needed.items():
            if on_board.get(key, 0) + n > counts.get(key, 0):
                raise IllegalMoveError(
                    "too_many_tiles",
                    tiles=tiles.name,
                    count=tiles.count(key),
                    letter="blank" if key == BLANK else key,
                )
        n_placed = len(placed)
        if self._n_on_board == 0:
            if not (start <= CENTRE <= end and (row == 7 if across else col == 7)):
                raise IllegalMoveError("first_not_centre")
            if n_placed < 2:
                raise IllegalMoveError("first_too_short")
        elif not move.through and not self._touches_a_tile(move):
            raise IllegalMoveError("not_connected")
        if n_placed > self._rack_count[p]:
            raise IllegalMoveError(
                "not_enough_tiles", player=self._name(p), count=self._rack_count[p]
            )
        return start, step

    def _touches_a_tile(self, move: Play) -> bool:
        """Whether a new tile of ``move`` (which plays through none) has a neighbour
        beside its line; the squares at its ends were checked empty already."""
        cells = self._cells
        row, col = move.row, move.col
        if move.direction is _ACROSS:
            for off, _ in move.placed:
                idx = row * SIZE + col + off
                if (row > 0 and cells[idx - SIZE]) or (row < SIZE - 1 and cells[idx + SIZE]):
                    return True
        else:
            for off, _ in move.placed:
                idx = (row + off) * SIZE + col
                if (col > 0 and cells[idx - 1]) or (col < SIZE - 1 and cells[idx + 1]):
                    return True
        return False

    def _score_play(
        self, move: Play, start: int, step: int, new: dict[int, str]
    ) -> tuple[list[tuple[str, int]], int]:
        """Every new word with its score (main word first, then one cross-word per new
        tile) and their total, bingo bonus not included. Premiums count on new tiles;
        ``new`` maps their offsets to their letters."""
        cells = self._cells
        values = self._values
        letters = []
        main_sum = 0
        word_mult = 1
        length = move.length
        for off in range(length):
            idx = start + off * step
            letter = new.get(off)
            if letter is None:
                letter = cells[idx]
                main_sum += values[letter]
            else:
                main_sum += values[letter] * LETTER_MULT[idx]
                word_mult *= WORD_MULT[idx]
            letters.append(letter)
        words: list[tuple[str, int]] = []
        total = 0
        if length > 1:
            main_score = main_sum * word_mult
            words.append(("".join(letters), main_score))
            total = main_score
        across = step == 1
        cross = SIZE if across else 1  # step across the main word
        # Where each new tile stands along its cross-word: the main word's row (across) or
        # column (down), the same for every tile.
        pos = move.row if across else move.col
        for off, letter in move.placed:
            idx = start + off * step
            lo = idx
            k = pos
            while k > 0 and cells[lo - cross]:
                lo -= cross
                k -= 1
            hi = idx
            k = pos
            while k < SIZE - 1 and cells[hi + cross]:
                hi += cross
                k += 1
            if lo == hi:
                continue
            s = 0
            chars = []
            j = lo
            while j <= hi:
                if j == idx:
                    s += values[letter] * LETTER_MULT[idx]
                    chars.append(letter)
                else:
                    t = cells[j]
                    s += values[t]
                    chars.append(t)
                j += cross
            score = s * WORD_MULT[idx]
            words.append(("".join(chars), score))
            total += score
        if not words:  # defensive: connection and the first-move rule already ensure a word
            raise IllegalMoveError("no_word")
        return words, total

    def _commit_play(
        self,
        move: Play,
        start: int,
        step: int,
        p: int,
        rack_left: str | None,
        total: int,
        changes: list[tuple[int, str]],
    ) -> tuple[tuple[int, int, str], ...]:
        """Put the tiles down, draw, score and pass the turn; the new tiles as
        ``(row, col, letter)``."""
        cells = self._cells
        on_board = self._on_board
        placed_out = []
        row, col = move.row, move.col
        across = step == 1
        for off, letter in move.placed:
            idx = start + off * step
            changes.append((idx, ""))
            cells[idx] = letter
            key = BLANK if letter.islower() else letter
            on_board[key] = on_board.get(key, 0) + 1
            placed_out.append((row, col + off, letter) if across else (row + off, col, letter))
        n_placed = len(move.placed)
        self._n_on_board += n_placed
        self._rack_count[p] -= n_placed
        drew = self._draw(p)
        self._rack_after[p] = rack_left if (rack_left is not None and drew == 0) else None
        self._placed_last[p] = True
        self._scores[p] += total
        self._advance(p, scoreless=total == 0, is_pass=False)
        return tuple(placed_out)

    def _exchange_problem(self, p: int, count: int) -> IllegalMoveError | None:
        rules = self.rules
        if not rules.exchange_allowed:
            return IllegalMoveError("exchange_not_allowed", rules=rules.name)
        if count > self._rack_count[p]:
            return IllegalMoveError(
                "not_enough_tiles", player=self._name(p), count=self._rack_count[p]
            )
        first = self._turns[p] == 0
        if first and not rules.exchange_first_turn_allowed:
            return IllegalMoveError("exchange_first_turn", rules=rules.name)
        if self._bag < max(count, rules.exchange_min_bag):
            needed = max(count, rules.exchange_min_bag)
            return IllegalMoveError("exchange_bag_too_small", needed=needed, bag=self._bag)
        # On the first turn there is no previous own turn, so this rule cannot apply.
        if not first and rules.exchange_requires_previous_play and not self._placed_last[p]:
            return IllegalMoveError("exchange_needs_previous_play")
        if rules.exchange_max_tiles is not None and count > rules.exchange_max_tiles:
            return IllegalMoveError("exchange_too_many", max=rules.exchange_max_tiles)
        return None

    def _exchange(self, move: Exchange, rack: str | None, p: int) -> MoveResult:
        problem = self._exchange_problem(p, move.count)
        if problem is not None:
            raise problem
        if move.tiles is not None:
            for tile in move.tiles:
                if not self.tiles.is_tile(tile):
                    raise IllegalMoveError("unknown_letter", letter=tile, tiles=self.tiles.name)
            self._check_tiles_exist(move.tiles)
            if rack is not None:
                self._take_from_rack(rack, move.tiles)
        self._rack_after[p] = None
        self._placed_last[p] = False
        self._advance(p, scoreless=True, is_pass=False)
        return MoveResult(move, p, 0, self._scores[p], rack=rack, notation=move.notation())

    def _pass(self, move: Pass, rack: str | None, p: int) -> MoveResult:
        rules = self.rules
        if not rules.passing_allowed and self._exchange_problem(p, 1) is None:
            raise IllegalMoveError("pass_not_allowed", rules=rules.name)
        if rack is not None and len(rack) == self._rack_count[p]:
            self._rack_after[p] = rack
        self._placed_last[p] = False
        self._advance(p, scoreless=True, is_pass=True)
        return MoveResult(move, p, 0, self._scores[p], rack=rack, notation="-")

    def _blank_swap(
        self, move: BlankSwap, rack: str | None, p: int, changes: list[tuple[int, str]]
    ) -> MoveResult:
        rules = self.rules
        if not rules.blank_swap_allowed:
            raise IllegalMoveError("blank_swap_not_allowed", rules=rules.name)
        cells = self._cells
        seen = set()
        letters = []
        for r, c in move.squares:
            name = square_name(r, c)
            if not (0 <= r < SIZE and 0 <= c < SIZE):
                raise IllegalMoveError("bad_square", square=f"{r},{c}")
            if (r, c) in seen:
                raise IllegalMoveError("blank_swap_repeated", square=name)
            seen.add((r, c))
            tile = cells[r * SIZE + c]
            if not tile or not tile.islower():
                raise IllegalMoveError("not_a_blank", square=name)
            letters.append(tile.upper())
        need = Counter(letters)
        for letter, n in need.items():
            if self._on_board.get(letter, 0) + n > self.tiles.count(letter):
                raise IllegalMoveError(
                    "too_many_tiles",
                    tiles=self.tiles.name,
                    count=self.tiles.count(letter),
                    letter=letter,
                )
        if rack is not None:
            left = self._take_from_rack(rack, letters)
            self._rack_after[p] = (
                parse_rack(left + BLANK * len(letters), self.tiles)
                if len(rack) == self._rack_count[p]
                else None
            )
        else:
            self._rack_after[p] = None
        for r, c in move.squares:
            idx = r * SIZE + c
            self._set(idx, cells[idx].upper(), changes)
        score = sum(self.tiles.value(letter) for letter in letters)
        self._scores[p] += score
        self._placed_last[p] = False
        self._advance(p, scoreless=score == 0, is_pass=False)
        return MoveResult(
            move,
            p,
            score,
            self._scores[p],
            rack=rack,
            notation=move.notation(),
            placed=tuple((r, c, cells[r * SIZE + c]) for r, c in move.squares),
        )

    def _challenge(self, move: Challenge, changes: list[tuple[int, str]]) -> MoveResult:
        if not self._history or self._history[-1].kind != "play":
            raise IllegalMoveError("nothing_to_challenge")
        last = self._history[-1]
        x = last.player
        n = len(self.players)
        challenger = move.challenger
        if challenger is None:
            challenger = self._to_move if self._to_move != x else (x + 1) % n
        if not 0 <= challenger < n:
            raise IllegalMoveError("bad_player", player=challenger)
        rules = self.rules
        # Stored with the challenger filled in, so equal games have equal moves.
        move = Challenge(move.valid, challenger)
        if not move.valid:
            play_snapshot = self._undo[-1][0]
            for r, c, _ in last.placed:
                self._set(r * SIZE + c, "", changes)
            self._rack_count[x] = play_snapshot.rack_count[x]
            self._bag = play_snapshot.bag
            if rules.end_scoreless_kind == "scoreless":
                self._scoreless = play_snapshot.scoreless + 1
            self._placed_last[x] = False
            self._rack_after[x] = (
                last.rack
                if last.rack is not None and len(last.rack) == play_snapshot.rack_count[x]
                else None
            )
            score = -last.score - rules.invalid_word_penalty
            self._scores[x] += score
            return MoveResult(move, x, score, self._scores[x], is_turn=False, notation="--")
        kind = rules.wrong_challenge
        if kind == "bonus":
            self._scores[x] += rules.wrong_challenge_points
            return MoveResult(
                move,
                x,
                rules.wrong_challenge_points,
                self._scores[x],
                is_turn=False,
                notation="(challenge)",
            )
        if kind == "penalty":
            score = -rules.wrong_challenge_points
            self._scores[challenger] += score
            return MoveResult(
                move,
                challenger,
                score,
                self._scores[challenger],
                is_turn=False,
                notation="(challenge)",
            )
        if kind == "lose_turn":
            if challenger != self._to_move:
                raise IllegalMoveError("challenger_not_to_move", rules=rules.name)
            limit = rules.turn_limit
            if limit is None or self._turns[challenger] < limit:
                self._placed_last[challenger] = False
                self._advance(challenger, scoreless=True, is_pass=True)
                return MoveResult(
                    move, challenger, 0, self._scores[challenger], notation="(challenge)"
                )
            return MoveResult(
                move,
                challenger,
                0,
                self._scores[challenger],
                is_turn=False,
                notation="(challenge)",
            )
        return MoveResult(move, x, 0, self._scores[x], is_turn=False, notation="(challenge)")

    def _time_penalty(self, move: TimePenalty) -> MoveResult:
        rules = self.rules
        if rules.overtime_penalty <= 0:
            raise IllegalMoveError("no_time_penalty_in_rules", rules=rules.name)
        if not 0 <= move.player < len(self.players):
            raise IllegalMoveError("bad_player", player=move.player)
        score = -move.minutes * rules.overtime_penalty
        self._scores[move.player] += score
        return MoveResult(
            move,
            move.player,
            score,
            self._scores[move.player],
            is_turn=False,
            notation=move.notation(),
        )

    def _flag_fall(self, move: FlagFall) -> MoveResult:
        if self.is_over:
            raise IllegalMoveError("game_over")
        if not self.rules.flag_fall_loses:
            raise IllegalMoveError("flag_fall_not_in_rules", rules=self.rules.name)
        player = self._to_move if move.player is None else move.player
        if not 0 <= player < len(self.players):
            raise IllegalMoveError("bad_player", player=player)
        self._flag_fallen = player
        return MoveResult(
            FlagFall(player), player, 0, self._scores[player], is_turn=False, notation="(flagfall)"
        )

    def _annul(self, move: Annul) -> MoveResult:
        if self._annulled:
            raise IllegalMoveError("game_over")
        self._annulled = True
        p = self._to_move
        return MoveResult(move, p, 0, self._scores[p], is_turn=False, notation="(annulled)")

    def _end_rack(self, move: EndRack) -> MoveResult:
        p = move.player
        if not 0 <= p < len(self.players):
            raise IllegalMoveError("bad_player", player=p)
        if not self.is_over:
            raise IllegalMoveError("end_rack_not_over")
        known = self._known_end_racks()[p]
        if known is not None:
            raise IllegalMoveError("end_rack_known", player=self._name(p), tiles=known or "-")
        tiles = parse_rack(move.tiles, self.tiles)
        if len(tiles) != self._rack_count[p]:
            raise IllegalMoveError("rack_too_large", size=self._rack_count[p], count=len(tiles))
        self._check_rack(tiles, p)
        racks = list(self._end_racks)
        racks[p] = tiles
        self._end_racks = tuple(racks)
        return MoveResult(
            move, p, 0, self._scores[p], rack=tiles, is_turn=False, notation=move.notation()
        )


def _rack_key(tile: str) -> tuple[bool, str]:
    return (tile == BLANK, tile)
