"""Every legal play for a rack: Appel and Jacobson's move generator over a DAWG.

Pure Python: this module imports nothing from Django. Algorithm: A. W. Appel and
G. J. Jacobson, "The World's Fastest Scrabble Program", CACM 31(5), 1988:

1. Per direction, precompute for every empty square its **cross-check set** (the
   letters that make a valid word with the tiles above and below it, as a 26-bit
   mask) and its **cross score** (the value of those tiles). Squares without such
   tiles allow every letter and form no cross-word.
2. **Anchors** are the empty squares next to a tile (on an empty board: the centre).
   Every play covers at least one anchor; it is generated from its leftmost one.
3. Per anchor, build the **left part** from the rack on the empty, non-anchor squares
   to its left (they have no neighbours, so any DAWG prefix fits), or take the tiles
   already there; then **extend right** through the anchor, placing rack tiles where
   the cross-check allows and following tiles on the board, recording a play wherever
   a word ends on an empty square or the edge.

Down plays are across plays on the transposed board. A one-tile play that forms a
word both ways is reported once, across (as :meth:`rules.Game.make_play` names it).
Scores follow the engine exactly (letter and word premiums on new tiles only, every
cross-word, the rule set's bingo bonus for a play of ``rack_size`` tiles); the tests
check every generated play against :meth:`rules.Game.preview` and against a slow
reference generator. Plays are only generated from a rack the player could hold: one
longer than the rule set's rack (``rack_too_large``) or than the player to move holds
(``not_enough_tiles``), or asking for more of a tile than the set has
(``rack_exceeds_set``) or than the set has left beside the board (``rack_impossible``),
is refused, so every play respects the tile set's counts and :meth:`rules.Game.push`
accepts it.

Blank swaps (Gouds 8) are scoring moves too: :func:`blank_swaps` lists them from the
engine's own :class:`rules.BlankSwap`, scored as the engine scores them (the face
values of the letters put down), and :meth:`MoveGenerator.best_move` weighs them
against the best play.

Speed: the board state is ints in flat lists, rack and cross-checks are bitmasks, what
depends on a square alone is worked out once per position (:class:`_Search`), the
search passes its state as arguments (no object per node or per play until asked),
and what depends on the word list alone (the DAWG's word heights) comes with its file:
see ``benchmarks/movegen.py``.
"""

from __future__ import annotations

from array import array
from bisect import insort
from collections import Counter
from itertools import combinations
from operator import mul
from typing import NamedTuple

from rules.board import LETTER_MULT, SIZE, WORD_MULT, Direction, format_position
from rules.dawg import ALL_LETTERS, TERMINAL, Dawg
from rules.errors import IllegalMoveError
from rules.game import Game
from rules.move import BlankSwap, Exchange, Play
from rules.tiles import BLANK, parse_rack

__all__ = [
    "GeneratedMove",
    "GeneratedPlay",
    "GeneratedSwap",
    "MoveGenerator",
    "blank_swaps",
    "exchanges",
    "generate_plays",
]

_TRANSPOSE = tuple((i % SIZE) * SIZE + i // SIZE for i in range(SIZE * SIZE))
_LM_DOWN = tuple(LETTER_MULT[_TRANSPOSE[i]] for i in range(SIZE * SIZE))
_WM_DOWN = tuple(WORD_MULT[_TRANSPOSE[i]] for i in range(SIZE * SIZE))
_CENTRE_ROW = SIZE // 2
_LOWER = tuple(chr(97 + i) for i in range(26))
_UPPER = tuple(chr(65 + i) for i in range(26))


class GeneratedPlay(NamedTuple):
    """One legal play: where, what, and its score under the game's rule set.

    ``word`` is the main word in the engine's notation: new tiles as letters (lowercase
    = blank), tiles already on the board as ``.``; ``score`` includes the bingo bonus.
    A named tuple, since a rack with blanks has tens of thousands of plays.
    """

    score: int
    row: int
    col: int
    down: bool
    word: str
    tiles_used: int
    bingo: bool

    @property
    def direction(self) -> Direction:
        return Direction.DOWN if self.down else Direction.ACROSS

    @property
    def notation(self) -> str:
        """GCG-style, e.g. ``8H JAVE..N``."""
        return f"{format_position(self.row, self.col, self.direction)} {self.word}"

    @property
    def play(self) -> Play:
        """The play as a move for :meth:`rules.Game.push`."""
        return Play(self.row, self.col, self.direction, self.word)

    @property
    def move(self) -> Play:
        """The move for :meth:`rules.Game.push` (as :attr:`GeneratedSwap.move`)."""
        return self.play

    @property
    def placed(self) -> tuple[tuple[int, int, str], ...]:
        """The new tiles as ``(row, col, letter)``, lowercase = blank."""
        row, col = self.row, self.col
        if self.down:
            return tuple((row + i, col, ch) for i, ch in enumerate(self.word) if ch != ".")
        return tuple((row, col + i, ch) for i, ch in enumerate(self.word) if ch != ".")

    def main_word(self, game: Game) -> str:
        """The main word spelled out (through-letters filled in from ``game``'s board)."""
        cells = game._cells
        step = SIZE if self.down else 1
        start = self.row * SIZE + self.col
        return "".join(
            ch.upper() if ch != "." else cells[start + i * step].upper()
            for i, ch in enumerate(self.word)
        )


class GeneratedSwap(NamedTuple):
    """One legal blank swap (Gouds 8): the real tiles of ``letters`` replace the blanks
    on ``squares`` (0-based ``(row, col)``, board order); ``score`` is their face value.
    """

    score: int
    squares: tuple[tuple[int, int], ...]
    letters: str

    @property
    def move(self) -> BlankSwap:
        """The swap as a move for :meth:`rules.Game.push`."""
        return BlankSwap(self.squares)

    @property
    def notation(self) -> str:
        """E.g. ``swap G8 I8``."""
        return self.move.notation()

    @property
    def tiles_used(self) -> int:
        return len(self.squares)

    @property
    def placed(self) -> tuple[tuple[int, int, str], ...]:
        """The real tiles put down as ``(row, col, letter)``."""
        return tuple(
            (r, c, letter) for (r, c), letter in zip(self.squares, self.letters, strict=True)
        )

    def main_word(self, game: Game) -> str:
        """The letters put down (a swap forms no new word)."""
        return self.letters


#: A scoring move of the generator: a play or a blank swap.
GeneratedMove = GeneratedPlay | GeneratedSwap


class MoveGenerator:
    """Generates plays with one DAWG; reuse it for many positions of one word list."""

    def __init__(self, dawg: Dawg) -> None:
        self.dawg = dawg

    @classmethod
    def for_game(cls, game: Game) -> MoveGenerator:
        """A generator over the shipped DAWG of the game's rule set (loaded once)."""
        return cls(Dawg.default(game.rules.lexicon))

    def plays(self, game: Game, rack: str) -> list[GeneratedPlay]:
        """Every legal play from ``rack`` (``?`` = blank) in ``game``'s position, best
        first (score descending, then notation). Raises :class:`IllegalMoveError` for
        a rack the player to move cannot hold (see the module docstring for the codes)."""
        return self._generate(game, rack, best_only=False)

    def best(self, game: Game, rack: str) -> GeneratedPlay | None:
        """The first play :meth:`plays` would list, or None; quicker, since it keeps
        only plays that reach the best score so far."""
        plays = self._generate(game, rack, best_only=True)
        return plays[0] if plays else None

    def tops(self, game: Game, rack: str) -> list[GeneratedPlay]:
        """Every play with the highest score (a duplicate turn's *top*), in the order
        :meth:`plays` lists them; empty when no play is possible. The search skips every
        branch that cannot reach the best score so far, so it is several times quicker
        than :meth:`plays` (``benchmarks/duplicate.py``)."""
        plays = self._generate(game, rack, best_only=True)
        return [play for play in plays if play.score == plays[0].score] if plays else []

    def best_move(self, game: Game, rack: str) -> GeneratedMove | None:
        """The highest-scoring move the rules allow from ``rack``: the best play, or a
        blank swap that scores more (on a tie the play, as it is listed first)."""
        play = self.best(game, rack)
        swaps = blank_swaps(game, rack)
        if swaps and (play is None or swaps[0].score > play.score):
            return swaps[0]
        return play

    def _generate(self, game: Game, rack: str, *, best_only: bool) -> list[GeneratedPlay]:
        rack = _checked_rack(game, rack)
        out: list[GeneratedPlay] = []
        if not rack:
            return out
        tiles = game.tiles
        values = [tiles.value(ch) for ch in _UPPER]
        counts = [0] * 26
        blanks = 0
        for ch in rack:
            if ch == BLANK:
                blanks += 1
            else:
                counts[ord(ch) - 65] += 1
        cells = game._cells
        grid = [(ord(t.upper()) - 65) if t else -1 for t in cells]
        gval = [values[g] if g >= 0 and not cells[i].islower() else 0 for i, g in enumerate(grid)]
        rack_ = _Rack(values, counts, blanks, game.rules.rack_size, game.rules.bingo_bonus)
        left_parts, bounds = _left_parts(self.dawg, rack_, len(rack) - 1)
        floor = [0 if best_only else -1]
        searches: list[_Search] = []
        tasks: list[tuple[int, int, int, int]] = []
        for down in (False, True):
            if down:
                g = [grid[_TRANSPOSE[i]] for i in range(SIZE * SIZE)]
                v = [gval[_TRANSPOSE[i]] for i in range(SIZE * SIZE)]
                lm, wm = _LM_DOWN, _WM_DOWN
            else:
                g, v, lm, wm = grid, gval, LETTER_MULT, WORD_MULT
            empty_board = game._n_on_board == 0
            search = _Search(
                self.dawg, g, v, lm, wm, rack_, down, empty_board, left_parts, bounds, out, floor
            )
            tasks.extend((bound, len(searches), row, col) for bound, row, col in search.tasks())
            searches.append(search)
        if best_only:
            # The anchors that may score most first: the best play found early lets the
            # bound cut off the rest (ties are kept: only plays below the floor are cut).
            tasks.sort(key=lambda task: -task[0])
        for bound, which, row, anchor in tasks:
            if bound < floor[0]:
                break
            searches[which].run(row, anchor)
        out.sort(key=_sort_key)
        return out


def _sort_key(play: GeneratedPlay) -> tuple[int, bool, int, int, str]:
    return (-play[0], play[3], play[1], play[2], play[4])


def generate_plays(game: Game, rack: str, dawg: Dawg | None = None) -> list[GeneratedPlay]:
    """Every legal play from ``rack`` in ``game``'s position, best first.

    ``dawg`` defaults to the shipped one for the rule set's word list.
    """
    generator = MoveGenerator(dawg) if dawg is not None else MoveGenerator.for_game(game)
    return generator.plays(game, rack)


def exchanges(game: Game, rack: str) -> list[Exchange]:
    """The distinct exchanges the player to move may make from ``rack`` now (empty when
    the rule set or the bag does not allow one), fewest tiles first."""
    rack = _checked_rack(game, rack)
    player = game.to_move
    if player is None:
        return []
    out: list[Exchange] = []
    for count in range(1, len(rack) + 1):
        if game._exchange_problem(player, count) is not None:
            continue
        seen = set()
        for combo in combinations(rack, count):
            if combo not in seen:
                seen.add(combo)
                out.append(Exchange(tiles="".join(combo)))
    return out


def blank_swaps(game: Game, rack: str) -> list[GeneratedSwap]:
    """The blank swaps the player to move may make from ``rack`` now, best first (then
    in board order): each blank on the board whose letter is on the rack, and each
    pair of them the rack can fill. Empty when the rule set has no blank swap."""
    rack = _checked_rack(game, rack)
    if not game.rules.blank_swap_allowed or game.to_move is None:
        return []
    cells = game._cells
    blanks = [(i, cells[i].upper()) for i in range(SIZE * SIZE) if cells[i].islower()]
    held = Counter(rack)
    value = game.tiles.value
    out: list[GeneratedSwap] = []
    for n in (1, 2):
        for combo in combinations(blanks, n):
            letters = "".join(letter for _, letter in combo)
            if Counter(letters) - held:
                continue
            squares = tuple(divmod(i, SIZE) for i, _ in combo)
            out.append(GeneratedSwap(sum(value(ch) for ch in letters), squares, letters))
    out.sort(key=lambda swap: (-swap.score, len(swap.squares), swap.squares))
    return out


def _checked_rack(game: Game, rack: str) -> str:
    """``rack`` normalised, or the error saying why the player to move cannot hold it."""
    rack = parse_rack(rack, game.tiles)
    size = game.rules.rack_size
    if len(rack) > size:
        raise IllegalMoveError("rack_too_large", size=size, count=len(rack))
    player = game.to_move
    if player is not None and len(rack) > game.rack_sizes[player]:
        raise IllegalMoveError(
            "not_enough_tiles", player=game.players[player], count=game.rack_sizes[player]
        )
    _check_counts(game, rack)
    return rack


def _check_counts(game: Game, rack: str) -> None:
    """Refuse a rack asking for more of a tile (a blank is ``?``) than the set has, or
    than the set has beside the tiles on the board (a blank on the board counts as a
    blank, not as its letter). The other racks are not counted: they are not known."""
    tiles = game.tiles
    wanted = Counter(rack)
    order = sorted(wanted, key=lambda t: (t == BLANK, t))
    for tile in order:
        if wanted[tile] > tiles.count(tile):
            raise IllegalMoveError(
                "rack_exceeds_set",
                rack=rack,
                letter=_tile_name(tile),
                wanted=wanted[tile],
                count=tiles.count(tile),
                tiles=tiles.name,
            )
    on_board = game._on_board
    for tile in order:
        placed = on_board.get(tile, 0)
        if wanted[tile] + placed > tiles.count(tile):
            raise IllegalMoveError(
                "rack_impossible",
                rack=rack,
                letter=_tile_name(tile),
                wanted=wanted[tile],
                count=tiles.count(tile),
                on_board=placed,
                tiles=tiles.name,
            )


def _tile_name(tile: str) -> str:
    # As the engine's other tile-count messages name a blank (the app translates it).
    return "blank" if tile == BLANK else tile


class _Rack:
    """The rack as the search counts it: tiles per letter, blanks, and the rule set's
    bingo (a play of ``rack_size`` tiles earns ``bingo_bonus``)."""

    __slots__ = (
        "bingo_bonus",
        "blanks",
        "counts",
        "mask",
        "rack_size",
        "ranked",
        "total",
        "value",
        "values",
    )

    def __init__(
        self, values: list[int], counts: list[int], blanks: int, rack_size: int, bingo_bonus: int
    ) -> None:
        self.values = values
        self.counts = counts
        self.blanks = blanks
        self.rack_size = rack_size
        self.bingo_bonus = bingo_bonus
        self.total = sum(counts) + blanks
        self.value = sum(values[i] * n for i, n in enumerate(counts))
        #: The tiles' values, highest first (a blank is worth 0).
        self.ranked = sorted(
            (values[i] for i, n in enumerate(counts) for _ in range(n)), reverse=True
        )
        self.ranked += [0] * blanks
        mask = 0
        for i, n in enumerate(counts):
            if n:
                mask |= 1 << i
        self.mask = mask


#: What :func:`_visit` reads and fills: the DAWG's arrays, the tiles per letter left,
#: the values of the letters so far, the parts found, the longest part, the values.
_VisitContext = tuple[
    "array[int]",
    "array[int]",
    "array[int]",
    list[int],
    list[int],
    list["_LeftPart"],
    int,
    list[int],
]


def _visit(
    context: _VisitContext, node: int, letters: str, rack_mask: int, blanks: int, total: int
) -> None:
    """Record the left part ``letters`` (at ``node``) and every longer one it starts."""
    masks, bases, targets, counts, worth, found, max_len, values = context
    mask = masks[node]
    follow = mask & (ALL_LETTERS if blanks else rack_mask)
    if not follow:
        return
    part = (
        len(letters),
        node,
        follow,
        letters,
        rack_mask,
        blanks,
        tuple(counts),
        tuple(worth),
        total,
    )
    found.append(part)
    if len(letters) == max_len:
        return
    base = bases[node]
    while follow:
        low = follow & -follow
        follow ^= low
        letter = low.bit_length() - 1
        child = targets[base + (mask & (low - 1)).bit_count()]
        have = counts[letter]
        if have:
            value = values[letter]
            counts[letter] = have - 1
            worth.append(value)
            after = rack_mask if have > 1 else rack_mask ^ low
            _visit(context, child, letters + _UPPER[letter], after, blanks, total + value)
            worth.pop()
            counts[letter] = have
        if blanks:
            worth.append(0)
            _visit(context, child, letters + _LOWER[letter], rack_mask, blanks - 1, total)
            worth.pop()


#: (length, DAWG node, letters that may follow from the rack, letters (lowercase =
#: blank), rack mask after, blanks left, tiles per letter left, the letters' face
#: values (0 for a blank), their sum).
_LeftPart = tuple[int, int, int, str, int, int, tuple[int, ...], tuple[int, ...], int]


def _left_parts(dawg: Dawg, rack: _Rack, max_len: int) -> tuple[list[_LeftPart], list[int]]:
    """Every DAWG prefix of up to ``max_len`` letters that the rack can spell (the empty
    one included; a blank as a lowercase letter), shortest first, and per length ``k``
    how many have at most ``k`` letters. Left parts go on squares without neighbours, so
    they do not depend on the board: they are enumerated once per rack, not once per
    anchor."""
    found: list[_LeftPart] = []
    context: _VisitContext = (
        dawg.masks,
        dawg.bases,
        dawg.targets,
        list(rack.counts),
        [],
        found,
        max_len,
        rack.values,
    )
    _visit(context, 0, "", rack.mask, rack.blanks, 0)
    found.sort(key=lambda part: part[0])
    bounds = [0] * (max_len + 1)
    for part in found:
        bounds[part[0]] += 1
    for k in range(1, max_len + 1):
        bounds[k] += bounds[k - 1]
    return found, bounds


class _Search:
    """The across search on one (possibly transposed) board for one rack.

    :meth:`tasks` lists its anchors; :meth:`run` searches the plays from one of them,
    appending to ``out``. Everything that depends on a square alone (cross-checks, what
    the next square asks of a word, the free squares to an anchor's left) is worked out
    once here, in flat lists, so the right extension only follows the DAWG.

    With a floor (``floor[0] >= 0``: only the best plays are wanted) the search is
    :meth:`extend_best`, which cuts every branch whose best completion cannot reach the
    floor (see :func:`_bound_row`); otherwise it is :meth:`extend_all`."""

    __slots__ = (
        "anchors",
        "at",
        "bases",
        "bingo_bound",
        "board",
        "bounds",
        "counts",
        "cross",
        "cscore",
        "down",
        "floor",
        "free",
        "grid",
        "gval",
        "heights",
        "left_parts",
        "lm",
        "masks",
        "out",
        "part_cache",
        "rack",
        "reach_memo",
        "room",
        "state",
        "tables",
        "targets",
        "wm",
        "word",
    )

    def __init__(
        self,
        dawg: Dawg,
        grid: list[int],
        gval: list[int],
        lm: tuple[int, ...],
        wm: tuple[int, ...],
        rack: _Rack,
        down: bool,
        empty_board: bool,
        left_parts: list[_LeftPart],
        bounds: list[int],
        out: list[GeneratedPlay],
        floor: list[int],
    ) -> None:
        self.masks, self.bases, self.targets = dawg.masks, dawg.bases, dawg.targets
        self.grid, self.gval, self.lm, self.wm = grid, gval, lm, wm
        self.rack = rack
        self.down = down
        self.left_parts, self.bounds = left_parts, bounds
        self.out = out
        self.floor = floor
        n_squares = SIZE * SIZE
        is_anchor = bytearray(n_squares)
        if empty_board:
            self.cross = [ALL_LETTERS] * n_squares
            self.cscore = [-1] * n_squares
            is_anchor[_CENTRE_ROW * SIZE + _CENTRE_ROW] = 1
        else:
            self.cross, self.cscore = _cross_checks(dawg, grid, gval)
            for idx in range(n_squares):
                if grid[idx] >= 0:
                    continue
                r, c = divmod(idx, SIZE)
                if (
                    (c > 0 and grid[idx - 1] >= 0)
                    or (c < SIZE - 1 and grid[idx + 1] >= 0)
                    or (r > 0 and grid[idx - SIZE] >= 0)
                    or (r < SIZE - 1 and grid[idx + SIZE] >= 0)
                ):
                    is_anchor[idx] = 1
        self.anchors = [idx for idx in range(n_squares) if is_anchor[idx]]
        # Per square: what the square after it asks of a word that reaches it (a word end
        # at the edge, the tile there, or its cross-check), whether that square is empty,
        # and how many empty non-anchor squares lie just to its left.
        cross = self.cross
        after = [TERMINAL] * n_squares
        open_next = bytearray(n_squares)
        self.free = free = [0] * n_squares
        for sq in range(n_squares):
            col = sq % SIZE
            if col < SIZE - 1:
                if grid[sq + 1] >= 0:
                    after[sq] = 1 << grid[sq + 1]
                else:
                    after[sq] = cross[sq + 1]
                    open_next[sq] = 1
            if col > 0 and grid[sq - 1] < 0 and not is_anchor[sq - 1]:
                free[sq] = free[sq - 1] + 1
        self.counts = list(rack.counts)
        self.word: list[str] = []
        self.reach_memo: dict[tuple[int, int, int], bool] = {}
        self.part_cache: dict[tuple[int, int, int], list[_LeftPart]] = {}
        self.tables: list[list[_BoundRow] | None] = []
        self.room: list[int] = []
        # Only the top search reads the heights (a first-format DAWG works them out).
        self.heights = dawg.heights() if floor[0] >= 0 else _NO_HEIGHTS
        # What the right extension reads, unpacked in one step per call (an attribute
        # each would cost more than the work of most calls).
        self.board = (
            grid,
            gval,
            self.masks,
            self.bases,
            self.targets,
            cross,
            self.cscore,
            lm,
            wm,
            after,
            open_next,
        )
        self.state = (
            self.word,
            self.counts,
            rack.values,
            out,
            rack.rack_size,
            rack.bingo_bonus,
            down,
        )
        self.at = (0, 0, 0, (0, 0))
        # The bingo bonus counts toward a bound only when the rack was full.
        self.bingo_bound = rack.bingo_bonus if rack.total == rack.rack_size else 0

    def tasks(self) -> list[tuple[int, int, int]]:
        """The anchors as ``(bound, row, col)``; with a floor, ``bound`` is the most any
        play from there can score (else 0)."""
        if self.floor[0] < 0:
            return [(0, *divmod(idx, SIZE)) for idx in self.anchors]
        grid, gval, total = self.grid, self.gval, self.rack.total
        self.tables = [None] * (SIZE * SIZE)
        self.room = room = [0] * (SIZE * SIZE)
        for row_start in range(0, SIZE * SIZE, SIZE):
            empty = 0
            for sq in range(row_start + SIZE - 1, row_start - 1, -1):
                if grid[sq] < 0:
                    empty += 1
                    room[sq] = empty
        tasks = []
        for idx in self.anchors:
            r, c = divmod(idx, SIZE)
            bound = 0
            if c > 0 and grid[idx - 1] >= 0:
                first = idx - 1
                while first > r * SIZE and grid[first - 1] >= 0:
                    first -= 1
                bound = _table_bound(self._bound_rows(idx)[total], sum(gval[first:idx]))
                if total <= room[idx]:
                    bound += self.bingo_bound
            else:
                for sq in range(idx - self._free_left(idx), idx + 1):
                    here = _table_bound(self._bound_rows(sq)[total], 0)
                    if total <= room[sq]:
                        here += self.bingo_bound
                    bound = max(bound, here)
            tasks.append((bound, r, c))
        return tasks

    def _free_left(self, idx: int) -> int:
        """How many empty non-anchor squares a left part may take before the anchor."""
        return min(self.free[idx], self.rack.total - 1, len(self.bounds) - 1)

    def _bound_rows(self, sq: int) -> list[_BoundRow]:
        """The bounds from ``sq`` (see :func:`_bound_row`), made when first asked for."""
        rows = self.tables[sq]
        if rows is None:
            rows = self.tables[sq] = _bound_row(
                sq, self.grid, self.gval, self.lm, self.wm, self.cscore, self.rack
            )
        return rows

    def _parts(self, limit: int, here: int, need: int) -> list[_LeftPart]:
        """The left parts of up to ``limit`` letters that some anchor letter in ``here``
        follows, and, when ``need`` (a tile's bit) is set, that reach that tile right
        after the anchor (asked once per DAWG node and letter set)."""
        key = (limit, here, need)
        parts = self.part_cache.get(key)
        if parts is not None:
            return parts
        parts = [p for p in self.left_parts[: self.bounds[limit]] if p[2] & here]
        if need:
            masks, bases, targets, memo = self.masks, self.bases, self.targets, self.reach_memo
            kept = []
            for part in parts:
                letters = part[2] & here
                node = part[1]
                memo_key = (node, letters, need)
                ok = memo.get(memo_key)
                if ok is None:
                    mask = masks[node]
                    base = bases[node]
                    ok = False
                    while letters:
                        low = letters & -letters
                        letters ^= low
                        if masks[targets[base + (mask & (low - 1)).bit_count()]] & need:
                            ok = True
                            break
                    memo[memo_key] = ok
                if ok:
                    kept.append(part)
            parts = kept
        self.part_cache[key] = parts
        return parts

    def run(self, row: int, anchor: int) -> None:
        """Search every play whose leftmost anchor is ``(row, anchor)``."""
        base = row * SIZE
        grid, counts, word, rack = self.grid, self.counts, self.word, self.rack
        best_only = self.floor[0] >= 0
        if anchor > 0 and grid[base + anchor - 1] >= 0:
            # Tiles to the left: the play starts with them.
            start = anchor - 1
            while start > 0 and grid[base + start - 1] >= 0:
                start -= 1
            masks, bases, targets = self.masks, self.bases, self.targets
            node = 0
            main_sum = 0
            for c in range(start, anchor):
                mask = masks[node]
                bit = 1 << grid[base + c]
                if not mask & bit:
                    return
                node = targets[bases[node] + (mask & (bit - 1)).bit_count()]
                main_sum += self.gval[base + c]
            word[:] = ["."] * (anchor - start)
            counts[:] = rack.counts
            self.at = (base, anchor, base + start, (start, row) if self.down else (row, start))
            if best_only:
                self.extend_best(
                    node, anchor, main_sum, 1, 0, 0, rack.mask, rack.blanks, rack.value
                )
            else:
                self.extend_all(node, anchor, main_sum, 1, 0, 0, rack.mask, rack.blanks)
            return
        idx = base + anchor
        need = 1 << grid[idx + 1] if anchor + 1 < SIZE and grid[idx + 1] >= 0 else 0
        parts = self._parts(self._free_left(idx), self.cross[idx], need)
        # Per left-part length: the squares' word premiums multiplied, and whether any
        # of them has a letter premium (else a part scores its letters' face values).
        lm, wm = self.lm, self.wm
        word_mults = [1]
        plain = [True]
        for sq in range(idx - 1, idx - len(self.bounds), -1):
            if sq < base:
                break
            word_mults.append(word_mults[-1] * wm[sq])
            plain.append(plain[-1] and lm[sq] == 1)
        down = self.down
        for length, node, _, letters, rack_mask, blanks, left, values, value in parts:
            start = anchor - length
            sq = base + start
            main_sum = value if plain[length] else sum(map(mul, values, lm[sq:idx]))
            counts[:] = left
            word[:] = letters
            self.at = (base, anchor, sq, (start, row) if down else (row, start))
            if best_only:
                self.extend_best(
                    node,
                    anchor,
                    main_sum,
                    word_mults[length],
                    0,
                    length,
                    rack_mask,
                    blanks,
                    rack.value - value,
                )
            else:
                self.extend_all(
                    node, anchor, main_sum, word_mults[length], 0, length, rack_mask, blanks
                )

    def extend_all(
        self,
        node: int,
        col: int,
        main_sum: int,
        word_mult: int,
        cross_sum: int,
        placed: int,
        rack_mask: int,
        blanks: int,
    ) -> None:
        """Extend the word right from ``col``, recording every play. A letter after which
        no tile can follow is recorded here, not in a call of its own: most letters
        placed are such leaves."""
        (grid, gval, masks, bases, targets, checks, cscore, lm, wm, after_of, open_of) = self.board
        word, counts, values, out, rack_size, bingo_bonus, down = self.state
        base, anchor, first, where = self.at
        # Follow the tiles already on the board (a loop, not a call per tile).
        through = 0
        while col < SIZE:
            tile = grid[base + col]
            if tile < 0:
                break
            mask = masks[node]
            bit = 1 << tile
            if not mask & bit:
                if through:
                    del word[-through:]
                return
            node = targets[bases[node] + (mask & (bit - 1)).bit_count()]
            main_sum += gval[base + col]
            word.append(".")
            through += 1
            col += 1
        mask = masks[node]
        if mask & TERMINAL and col > anchor:
            score = main_sum * word_mult + cross_sum
            bingo = placed == rack_size
            if bingo:
                score += bingo_bonus
            if not down or placed > 1 or not _single_tile_across(word, cscore, first):
                out.append(
                    _new_play(GeneratedPlay, (score, *where, down, "".join(word), placed, bingo))
                )
        if col < SIZE:
            sq = base + col
            allowed = mask & checks[sq] & (ALL_LETTERS if blanks else rack_mask)
            if allowed:
                cbase = bases[node]
                lmul = lm[sq]
                wmul = wm[sq]
                cross_base = cscore[sq]
                new_mult = word_mult * wmul
                after = after_of[sq]
                open_next = open_of[sq]
                nxt = col + 1
                placed += 1
                bingo = placed == rack_size
                bonus = bingo_bonus if bingo else 0
                # A lone new tile with a word across is the across pass's play.
                leaf_ok = not down or placed > 1 or cross_base < 0
                prefix = ""  # the word so far, joined when a leaf is first recorded
                # After a letter the next square asks for a tile (open_next) or for
                # what is already there, a tile or the edge.
                leaf_at_edge = nxt == SIZE
                while allowed:
                    low = allowed & -allowed
                    allowed ^= low
                    letter = low.bit_length() - 1
                    child = targets[cbase + (mask & (low - 1)).bit_count()]
                    child_mask = masks[child]
                    if open_next:
                        reach = child_mask & after
                        ends = child_mask & TERMINAL
                        if not reach and not ends:
                            continue
                    elif leaf_at_edge:
                        if not child_mask & TERMINAL:
                            continue
                        reach = 0
                        ends = TERMINAL
                    else:  # a tile next: follow it in a call
                        if not child_mask & after:
                            continue
                        reach = -1
                        ends = 0
                    have = counts[letter]
                    if have:
                        left = rack_mask if have > 1 else rack_mask ^ low
                        value = values[letter] * lmul
                        cross = (
                            cross_sum if cross_base < 0 else cross_sum + (cross_base + value) * wmul
                        )
                        if reach and (reach < 0 or reach & (ALL_LETTERS if blanks else left)):
                            counts[letter] = have - 1
                            word.append(_UPPER[letter])
                            self.extend_all(
                                child, nxt, main_sum + value, new_mult, cross, placed, left, blanks
                            )
                            word.pop()
                            counts[letter] = have
                        elif ends and leaf_ok:
                            if not prefix:
                                prefix = "".join(word)
                            out.append(
                                _new_play(
                                    GeneratedPlay,
                                    (
                                        (main_sum + value) * new_mult + cross + bonus,
                                        *where,
                                        down,
                                        prefix + _UPPER[letter],
                                        placed,
                                        bingo,
                                    ),
                                )
                            )
                    if blanks:
                        cross = cross_sum if cross_base < 0 else cross_sum + cross_base * wmul
                        if reach and (
                            reach < 0 or reach & (ALL_LETTERS if blanks > 1 else rack_mask)
                        ):
                            word.append(_LOWER[letter])
                            self.extend_all(
                                child, nxt, main_sum, new_mult, cross, placed, rack_mask, blanks - 1
                            )
                            word.pop()
                        elif ends and leaf_ok:
                            if not prefix:
                                prefix = "".join(word)
                            out.append(
                                _new_play(
                                    GeneratedPlay,
                                    (
                                        main_sum * new_mult + cross + bonus,
                                        *where,
                                        down,
                                        prefix + _LOWER[letter],
                                        placed,
                                        bingo,
                                    ),
                                )
                            )
        if through:
            del word[-through:]

    def extend_best(
        self,
        node: int,
        col: int,
        main_sum: int,
        word_mult: int,
        cross_sum: int,
        placed: int,
        rack_mask: int,
        blanks: int,
        rem: int,
    ) -> None:
        """Extend the word right from ``col``, each blank tried as each letter, cutting
        every branch that cannot reach the floor (the best plays only)."""
        (grid, gval, masks, bases, targets, checks, cscore, lm, wm, after_of, open_of) = self.board
        word, counts, values, out, rack_size, bingo_bonus, down = self.state
        base, anchor, first, where = self.at
        floor = self.floor
        through = 0
        while col < SIZE:
            tile = grid[base + col]
            if tile < 0:
                break
            mask = masks[node]
            bit = 1 << tile
            if not mask & bit:
                if through:
                    del word[-through:]
                return
            node = targets[bases[node] + (mask & (bit - 1)).bit_count()]
            main_sum += gval[base + col]
            word.append(".")
            through += 1
            col += 1
        mask = masks[node]
        if mask & TERMINAL and col > anchor:
            score = main_sum * word_mult + cross_sum
            bingo = placed == rack_size
            if bingo:
                score += bingo_bonus
            if score >= floor[0] and (
                not down or placed > 1 or not _single_tile_across(word, cscore, first)
            ):
                out.append(
                    _new_play(GeneratedPlay, (score, *where, down, "".join(word), placed, bingo))
                )
                floor[0] = score
        if col < SIZE:
            sq = base + col
            # Prune: what this branch can still score, at most (see _bound_row).
            left = self.rack.total - placed
            height = self.heights[node]
            board, pair, lmax, mult, cfix, cpair, cmax, span = self._bound_rows(sq)[
                height if height < left else left
            ]
            # The best pairing of the rack's top values, or all that is left of the
            # rack's value on the best premium, whichever is less.
            if rem * lmax < pair:
                pair = rem * lmax
            if rem * cmax < cpair:
                cpair = rem * cmax
            bound = (main_sum + board + pair) * word_mult * mult + cross_sum + cfix + cpair
            # A bingo needs a word that takes every tile left and every tile on the
            # board among and right after them.
            if height >= left and span <= height and left <= self.room[sq]:
                bound += self.bingo_bound
            if bound < floor[0]:
                if through:
                    del word[-through:]
                return
            allowed = mask & checks[sq]
            if not blanks:
                allowed &= rack_mask
            if allowed:
                cbase = bases[node]
                lmul = lm[sq]
                wmul = wm[sq]
                cross_base = cscore[sq]
                new_mult = word_mult * wmul
                after = after_of[sq]
                open_next = open_of[sq]
                nxt = col + 1
                while allowed:
                    low = allowed & -allowed
                    allowed ^= low
                    letter = low.bit_length() - 1
                    child = targets[cbase + (mask & (low - 1)).bit_count()]
                    child_mask = masks[child]
                    if open_next:
                        if child_mask & TERMINAL:
                            go_real = go_blank = True
                        else:
                            reach = child_mask & after
                            if not reach:
                                continue
                            go_real = True
                            go_blank = bool(blanks)
                            if blanks <= 1:
                                # With no blank left, the next tile must come from the rack.
                                go_blank = blanks == 1 and bool(reach & rack_mask)
                    elif child_mask & after:
                        go_real = go_blank = True
                    else:
                        continue
                    have = counts[letter]
                    if have:
                        left = rack_mask if have > 1 else rack_mask ^ low
                        if (
                            not open_next
                            or blanks
                            or child_mask & TERMINAL
                            or child_mask & after & left
                        ) and go_real:
                            value = values[letter] * lmul
                            counts[letter] = have - 1
                            word.append(_UPPER[letter])
                            self.extend_best(
                                child,
                                nxt,
                                main_sum + value,
                                new_mult,
                                cross_sum
                                if cross_base < 0
                                else cross_sum + (cross_base + value) * wmul,
                                placed + 1,
                                left,
                                blanks,
                                rem - values[letter],
                            )
                            word.pop()
                            counts[letter] = have
                    if blanks and go_blank:
                        word.append(_LOWER[letter])
                        self.extend_best(
                            child,
                            nxt,
                            main_sum,
                            new_mult,
                            cross_sum if cross_base < 0 else cross_sum + cross_base * wmul,
                            placed + 1,
                            rack_mask,
                            blanks - 1,
                            rem,
                        )
                        word.pop()
        if through:
            del word[-through:]


_new_play = tuple.__new__
_NO_HEIGHTS = array("B")

#: Per number ``j`` of tiles still to place from a square (see :func:`_bound_row`): the
#: board tiles the play can take in, the best pairing of rack values with letter
#: premiums, the highest letter premium, the word premiums multiplied, the cross-words'
#: board tiles, the best pairing with the cross-words' premiums, the highest such
#: premium, the squares the play takes.
_BoundRow = tuple[int, int, int, int, int, int, int, int]


def _table_bound(row: _BoundRow, main_sum: int) -> int:
    """The bound of :func:`_bound_row` from the start of a play (word premium 1)."""
    board, pair, _, mult, cfix, cpair, _, _ = row
    return (main_sum + board + pair) * mult + cfix + cpair


def _bound_row(
    sq: int,
    grid: list[int],
    gval: list[int],
    lm: tuple[int, ...],
    wm: tuple[int, ...],
    cscore: list[int],
    rack: _Rack,
) -> list[_BoundRow]:
    """For the empty square ``sq`` and each number ``j`` of tiles still on the rack
    (``0`` to the rack's size), what placing up to ``j`` more tiles from ``sq`` on can add
    to a play at most, for the top search:

        score <= (main_sum + board + pair) * word_mult * mult + cross_sum + cfix + cpair

    ``board``: the tiles already on the board among and right after the next ``j`` empty
    squares; ``pair``: the rack's ``j`` highest values on those squares' ``j`` highest
    letter premiums (the best pairing, by the rearrangement inequality; the search lowers
    it to what is left of the rack's value times ``lmax``, the highest premium, when that
    is less); ``mult``: their word premiums multiplied; ``cfix`` and ``cpair`` the same
    for the cross-words those squares can form (their tiles, and values paired with
    letter times word premium; ``cmax`` the highest). Every term grows with ``j``, and a
    play places no more than the rack holds (nor more than the DAWG node's height
    allows), so the bound holds for every play that continues from there. The bingo
    bonus is added by the caller when all tiles left fit. Made only for the squares a
    search reaches: most of the board never is."""
    ranked = rack.ranked
    n = rack.total
    row_end = sq - sq % SIZE + SIZE
    rows: list[_BoundRow] = [(0, 0, 0, 1, 0, 0, 0, 0)]
    letter_mults: list[int] = []
    cross_mults: list[int] = []
    board = 0
    word_mult = 1
    cross_fixed = 0
    pos = sq
    for _ in range(n):
        while pos < row_end and grid[pos] >= 0:  # tiles between the new ones
            board += gval[pos]
            pos += 1
        if pos == row_end:
            rows.append(rows[-1])  # no room for another tile: it adds nothing
            continue
        insort(letter_mults, -lm[pos])
        word_mult *= wm[pos]
        if cscore[pos] >= 0:
            insort(cross_mults, -lm[pos] * wm[pos])
            cross_fixed += cscore[pos] * wm[pos]
        pos += 1
        after = board
        end = pos
        while end < row_end and grid[end] >= 0:  # the tiles right after the last one
            after += gval[end]
            end += 1
        rows.append(
            (
                after,
                -sum(map(mul, ranked, letter_mults)),
                -letter_mults[0],
                word_mult,
                cross_fixed,
                -sum(map(mul, ranked, cross_mults)),
                -cross_mults[0] if cross_mults else 0,
                end - sq,
            )
        )
    return rows


def _single_tile_across(word: list[str], cscore: list[int], first: int) -> bool:
    """Whether a down play's one new tile also has across neighbours (then the across
    pass reports it)."""
    for i, ch in enumerate(word):
        if ch != ".":
            return cscore[first + i] >= 0
    return False


def _cross_checks(dawg: Dawg, grid: list[int], gval: list[int]) -> tuple[list[int], list[int]]:
    """Per square: the letters allowed there (mask) and the value of the tiles above and
    below it, or -1 when there are none (then every letter fits and no word forms)."""
    masks, bases, targets = dawg.masks, dawg.bases, dawg.targets
    n = SIZE * SIZE
    cross = [ALL_LETTERS] * n
    cscore = [-1] * n
    for idx in range(n):
        if grid[idx] >= 0:
            continue
        above = idx - SIZE >= 0 and grid[idx - SIZE] >= 0
        below = idx + SIZE < n and grid[idx + SIZE] >= 0
        if not above and not below:
            continue
        top = idx
        while top - SIZE >= 0 and grid[top - SIZE] >= 0:
            top -= SIZE
        bottom = idx
        while bottom + SIZE < n and grid[bottom + SIZE] >= 0:
            bottom += SIZE
        score = 0
        node = 0
        j = top
        while j < idx:
            score += gval[j]
            mask = masks[node]
            bit = 1 << grid[j]
            if node >= 0:
                node = targets[bases[node] + (mask & (bit - 1)).bit_count()] if mask & bit else -1
            j += SIZE
        j = idx + SIZE
        while j <= bottom:
            score += gval[j]
            j += SIZE
        allowed = 0
        if node >= 0:
            mask = masks[node]
            letters = mask & ALL_LETTERS
            base = bases[node]
            while letters:
                low = letters & -letters
                letters ^= low
                sub = targets[base + (mask & (low - 1)).bit_count()]
                j = idx + SIZE
                while j <= bottom and sub >= 0:
                    m = masks[sub]
                    bit = 1 << grid[j]
                    sub = targets[bases[sub] + (m & (bit - 1)).bit_count()] if m & bit else -1
                    j += SIZE
                if sub >= 0 and masks[sub] & TERMINAL:
                    allowed |= low
        cross[idx] = allowed
        cscore[idx] = score
    return cross, cscore
