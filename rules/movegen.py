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

Speed: the board state is ints in flat lists, rack and cross-checks are bitmasks, and
the search passes its state as arguments (no object per node or per play until asked):
see ``benchmarks/movegen.py``.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable
from itertools import combinations
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
        rules = game.rules
        empty_board = game._n_on_board == 0
        rack_total = len(rack)
        rack_mask = 0
        for i, n in enumerate(counts):
            if n:
                rack_mask |= 1 << i
        out: list[GeneratedPlay] = []
        if rack_total == 0:
            return out
        left_parts, bounds = _left_parts(self.dawg, counts, blanks, rack_total - 1)
        floor = [0 if best_only else -1]
        tasks: list[tuple[int, int, int, int]] = []
        runs: list[Callable[[int, int], None]] = []
        for down in (False, True):
            if down:
                g = [grid[_TRANSPOSE[i]] for i in range(SIZE * SIZE)]
                v = [gval[_TRANSPOSE[i]] for i in range(SIZE * SIZE)]
                lm, wm = _LM_DOWN, _WM_DOWN
            else:
                g, v, lm, wm = grid, gval, LETTER_MULT, WORD_MULT
            anchor_bounds, run = _search(
                self.dawg,
                g,
                v,
                lm,
                wm,
                values,
                list(counts),
                rules.rack_size,
                rules.bingo_bonus,
                down,
                empty_board,
                left_parts,
                bounds,
                rack_total,
                rack_mask,
                blanks,
                out,
                floor,
            )
            tasks.extend((bound, len(runs), row, anchor) for bound, row, anchor in anchor_bounds)
            runs.append(run)
        if best_only:
            # The anchors that may score most first: the best play found early lets the
            # bound cut off the rest (ties are kept: only plays below the floor are cut).
            tasks.sort(key=lambda task: -task[0])
        for bound, which, row, anchor in tasks:
            if bound < floor[0]:
                break
            runs[which](row, anchor)
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


def _left_parts(
    dawg: Dawg, counts: list[int], blanks: int, max_len: int
) -> tuple[list[_LeftPart], list[int]]:
    """Every DAWG prefix of up to ``max_len`` letters that the rack can spell (the empty
    one included), shortest first, and per length ``k`` how many have at most ``k``
    letters. Left parts go on squares without neighbours, so they do not depend on the
    board: they are enumerated once per rack, not once per anchor."""
    masks, bases, targets = dawg.masks, dawg.bases, dawg.targets
    found: list[_LeftPart] = []
    letters: list[str] = []

    def visit(node: int, rack_mask: int, blanks: int) -> None:
        mask = masks[node]
        follow = mask & (ALL_LETTERS if blanks else rack_mask)
        if follow:
            found.append((len(letters), node, follow, "".join(letters), rack_mask, blanks))
        if len(letters) == max_len:
            return
        allowed = follow
        base = bases[node]
        while allowed:
            low = allowed & -allowed
            allowed ^= low
            letter = low.bit_length() - 1
            child = targets[base + (mask & (low - 1)).bit_count()]
            have = counts[letter]
            if have:
                counts[letter] = have - 1
                letters.append(_UPPER[letter])
                visit(child, rack_mask if have > 1 else rack_mask ^ low, blanks)
                letters.pop()
                counts[letter] = have
            if blanks:
                letters.append(_LOWER[letter])
                visit(child, rack_mask, blanks - 1)
                letters.pop()

    rack_mask = 0
    for i, n in enumerate(counts):
        if n:
            rack_mask |= 1 << i
    visit(0, rack_mask, blanks)
    found.sort(key=lambda part: part[0])
    bounds = [0] * (max_len + 1)
    for part in found:
        bounds[part[0]] += 1
    for k in range(1, max_len + 1):
        bounds[k] += bounds[k - 1]
    return found, bounds


#: (length, DAWG node, letters that may follow from the rack, letters (lowercase =
#: blank), rack mask after, blanks after).
_LeftPart = tuple[int, int, int, str, int, int]


def _search(
    dawg: Dawg,
    grid: list[int],
    gval: list[int],
    lm: tuple[int, ...],
    wm: tuple[int, ...],
    values: list[int],
    counts: list[int],
    rack_size: int,
    bingo_bonus: int,
    down: bool,
    empty_board: bool,
    left_parts: list[_LeftPart],
    bounds: list[int],
    rack_total: int,
    rack_mask0: int,
    blanks0: int,
    out: list[GeneratedPlay],
    floor: list[int],
) -> tuple[list[tuple[int, int, int]], Callable[[int, int], None]]:
    """The across search on one (possibly transposed) board: its anchors as ``(bound,
    row, col)`` and the function that searches from one of them, appending to ``out``.

    With a floor (``floor[0] >= 0``: only the best plays are wanted), ``bound`` is the
    most any play from that anchor can score, and the search stops following a branch
    whose best completion cannot reach the floor (see :func:`_bound_tables`)."""
    masks, bases, targets = dawg.masks, dawg.bases, dawg.targets
    n_squares = SIZE * SIZE
    if empty_board:
        cross = [ALL_LETTERS] * n_squares
        cscore = [-1] * n_squares
        anchors = {_CENTRE_ROW * SIZE + _CENTRE_ROW}
    else:
        cross, cscore = _cross_checks(dawg, grid, gval)
        anchors = set()
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
                anchors.add(idx)
    new_play = tuple.__new__
    # With best_only, only plays scoring at least the best so far are kept.
    best_only = floor[0] >= 0
    width = rack_total + 1
    rem0 = sum(values[i] * n for i, n in enumerate(counts))
    if best_only:
        tables, room = _bound_tables(grid, gval, lm, wm, cscore, values, counts, blanks0)
        heights = dawg.heights()
    else:
        tables, room = [], []
    # The bingo bonus counts toward a bound only when the rack was full.
    bingo_bound = bingo_bonus if rack_total == rack_size else 0
    full_rack = tuple(counts)
    word: list[str] = []
    row = base = anchor = start = 0

    def extend(
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
            if score >= floor[0]:
                text = "".join(word)
                if not down:
                    out.append(
                        new_play(GeneratedPlay, (score, row, start, False, text, placed, bingo))
                    )
                    if best_only:
                        floor[0] = score
                elif placed > 1 or not _single_tile_across(word, cscore, base + start):
                    out.append(
                        new_play(GeneratedPlay, (score, start, row, True, text, placed, bingo))
                    )
                    if best_only:
                        floor[0] = score
        if col < SIZE:
            sq = base + col
            if best_only:
                # Prune: what this branch can still score, at most (see _bound_tables).
                left = rack_total - placed
                height = heights[node]
                board, pair, lmax, mult, cfix, cpair, cmax, span = tables[
                    sq * width + (height if height < left else left)
                ]
                # The best pairing of the rack's top values, or all that is left of
                # the rack's value on the best premium, whichever is less.
                if rem * lmax < pair:
                    pair = rem * lmax
                if rem * cmax < cpair:
                    cpair = rem * cmax
                bound = (main_sum + board + pair) * word_mult * mult + cross_sum + cfix + cpair
                # A bingo needs a word that takes every tile left and every tile on
                # the board among and right after them.
                if height >= left and span <= height and left <= room[sq]:
                    bound += bingo_bound
                if bound < floor[0]:
                    if through:
                        del word[-through:]
                    return
            allowed = mask & cross[sq]
            if not blanks:
                allowed &= rack_mask
            if allowed:
                cbase = bases[node]
                lmul = lm[sq]
                wmul = wm[sq]
                cross_base = cscore[sq]
                new_mult = word_mult * wmul
                # A child that can neither end a word here nor go on to the next square
                # is not visited: most calls would be such dead ends.
                nxt = col + 1
                if nxt == SIZE:
                    after, open_next = TERMINAL, False
                elif grid[sq + 1] >= 0:
                    after, open_next = 1 << grid[sq + 1], False
                else:
                    after, open_next = cross[sq + 1], True
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
                            extend(
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
                        extend(
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

    def free_left(idx: int, col: int) -> int:
        """How many empty non-anchor squares a left part may take before the anchor."""
        limit = 0
        c = col - 1
        while c >= 0 and grid[idx - col + c] < 0 and (idx - col + c) not in anchors:
            limit += 1
            c -= 1
        return min(limit, rack_total - 1, len(bounds) - 1)

    def run(row_: int, anchor_: int) -> None:
        nonlocal row, base, anchor, start
        row, base, anchor = row_, row_ * SIZE, anchor_
        if anchor > 0 and grid[base + anchor - 1] >= 0:
            start = anchor - 1
            while start > 0 and grid[base + start - 1] >= 0:
                start -= 1
            node = 0
            main_sum = 0
            for c in range(start, anchor):
                tile = grid[base + c]
                mask = masks[node]
                bit = 1 << tile
                if not mask & bit:
                    return
                node = targets[bases[node] + (mask & (bit - 1)).bit_count()]
                main_sum += gval[base + c]
            word[:] = ["."] * (anchor - start)
            counts[:] = full_rack
            extend(node, anchor, main_sum, 1, 0, 0, rack_mask0, blanks0, rem0)
            return
        limit = free_left(base + anchor, anchor)
        here = cross[base + anchor]
        parts = [p for p in left_parts[: bounds[limit]] if p[2] & here]
        if anchor + 1 < SIZE and grid[base + anchor + 1] >= 0 and parts:
            # A tile right after the anchor: keep the left parts that can reach it
            # through some anchor letter (asked once per DAWG node and letter set).
            parts = _reaching(parts, here, 1 << grid[base + anchor + 1], masks, bases, targets)
        for part in parts:
            length, node, _, letters, rack_mask, blanks = part
            start = anchor - length
            main_sum = 0
            word_mult = 1
            rem = rem0
            sq = base + start
            counts[:] = full_rack
            for i, ch in enumerate(letters):
                if ch < "a":  # a real tile (a blank is lowercase)
                    letter = ord(ch) - 65
                    counts[letter] -= 1
                    value = values[letter]
                    main_sum += value * lm[sq + i]
                    rem -= value
                word_mult *= wm[sq + i]
            word[:] = letters
            extend(node, anchor, main_sum, word_mult, 0, length, rack_mask, blanks, rem)

    tasks = []
    for idx in sorted(anchors):
        r, c = divmod(idx, SIZE)
        bound = 0
        if best_only:
            if c > 0 and grid[idx - 1] >= 0:
                first = idx - 1
                while first > r * SIZE and grid[first - 1] >= 0:
                    first -= 1
                bound = _table_bound(tables[idx * width + rack_total], sum(gval[first:idx]))
                if rack_total <= room[idx]:
                    bound += bingo_bound
            else:
                for sq in range(idx - free_left(idx, c), idx + 1):
                    here = _table_bound(tables[sq * width + rack_total], 0)
                    if rack_total <= room[sq]:
                        here += bingo_bound
                    bound = max(bound, here)
        tasks.append((bound, r, c))
    return tasks, run


#: Per square and tiles left (see :func:`_bound_tables`): the board tiles the play can
#: take in, the best pairing of rack values with letter premiums, the highest letter
#: premium, the word premiums multiplied, the cross-words' board tiles, the best pairing
#: with the cross-words' premiums, the highest such premium, the squares the play takes.
_BoundRow = tuple[int, int, int, int, int, int, int, int]


def _table_bound(row: _BoundRow, main_sum: int) -> int:
    """The bound of :func:`_bound_tables` from the start of a play (word premium 1)."""
    board, pair, _, mult, cfix, cpair, _, _ = row
    return (main_sum + board + pair) * mult + cfix + cpair


def _bound_tables(
    grid: list[int],
    gval: list[int],
    lm: tuple[int, ...],
    wm: tuple[int, ...],
    cscore: list[int],
    values: list[int],
    counts: list[int],
    blanks: int,
) -> tuple[list[_BoundRow], list[int]]:
    """Per empty square ``sq`` and number ``j`` of tiles still on the rack (index
    ``sq * (n + 1) + j``, ``n`` the rack's size), what placing up to ``j`` more tiles from
    ``sq`` on can add to a play at most, for the top search:

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
    bonus is added by the caller when all tiles left fit: ``room`` is, per square, the
    empty squares from there to the row's end."""
    n = sum(counts) + blanks
    width = n + 1
    ranked = sorted((values[i] for i, c in enumerate(counts) for _ in range(c)), reverse=True)
    ranked += [0] * blanks
    size = SIZE * SIZE
    nothing: _BoundRow = (0, 0, 0, 1, 0, 0, 0, 0)
    tables = [nothing] * (size * width)
    room = [0] * size
    for sq in range(size):
        if grid[sq] >= 0:
            continue
        row_end = sq - sq % SIZE + SIZE
        letter_mults: list[int] = []
        cross_mults: list[int] = []
        board = 0
        word_mult = 1
        cross_fixed = 0
        pos = sq
        for j in range(1, n + 1):
            k = sq * width + j
            while pos < row_end and grid[pos] >= 0:  # tiles between the new ones
                board += gval[pos]
                pos += 1
            if pos == row_end:
                tables[k] = tables[k - 1]  # no room for a j-th tile: it adds nothing
                continue
            letter_mults.append(lm[pos])
            word_mult *= wm[pos]
            if cscore[pos] >= 0:
                cross_mults.append(lm[pos] * wm[pos])
                cross_fixed += cscore[pos] * wm[pos]
            pos += 1
            after = board
            end = pos
            while end < row_end and grid[end] >= 0:  # the tiles right after the last one
                after += gval[end]
                end += 1
            letter_mults.sort(reverse=True)
            cross_mults.sort(reverse=True)
            tables[k] = (
                after,
                sum(v * m for v, m in zip(ranked, letter_mults, strict=False)),
                letter_mults[0],
                word_mult,
                cross_fixed,
                sum(v * m for v, m in zip(ranked, cross_mults, strict=False)),
                cross_mults[0] if cross_mults else 0,
                end - sq,
            )
        room[sq] = sum(1 for i in range(sq, row_end) if grid[i] < 0)
    return tables, room


def _reaching(
    parts: list[_LeftPart],
    here: int,
    need: int,
    masks: array[int],
    bases: array[int],
    targets: array[int],
) -> list[_LeftPart]:
    """The left parts with an anchor letter (in ``here``) after which ``need`` follows."""
    memo: dict[tuple[int, int], bool] = {}
    kept = []
    for part in parts:
        letters = part[2] & here
        key = (part[1], letters)
        ok = memo.get(key)
        if ok is None:
            node = part[1]
            mask = masks[node]
            base = bases[node]
            ok = False
            while letters:
                low = letters & -letters
                letters ^= low
                if masks[targets[base + (mask & (low - 1)).bit_count()]] & need:
                    ok = True
                    break
            memo[key] = ok
        if ok:
            kept.append(part)
    return kept


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
