"""Duplicate Scrabble: the master game a spelleider runs for a whole room.

Pure Python: this module imports nothing from Django. Everyone plays the same rack on
their own board; after each turn the *top* (the highest-scoring play) goes on every
board, and a player's result is their total as a percentage of the sum of the tops.
This module is the spelleider's computer: the racks (drawn from a bag order, or typed
in from the real bag), the tops of each turn, the end of the game and the sum of the
tops, under draw rules that are values (:class:`DrawRules`, the NTSV's by default).
Every rule and its source is in ``docs/duplicate.md``.

>>> game = DuplicateGame()
>>> game.draw("KAASEIN")
'AAEIKNS'
>>> turn = game.play()
>>> turn.score == game.total == turn.tops[0].score
True
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.board import SIZE, Direction, Notation, parse_position
from rules.dawg import Dawg
from rules.errors import RulesError
from rules.game import Game
from rules.move import Play, parse_move
from rules.movegen import GeneratedPlay, MoveGenerator
from rules.ruleset import STANDARD, RuleSet
from rules.tiles import BLANK, DUTCH, TileSet, parse_rack

__all__ = [
    "NTSV",
    "DrawRules",
    "DuplicateError",
    "DuplicateGame",
    "Slip",
    "Turn",
    "bag_order",
    "default_choice",
    "play_bag",
    "score_slip",
    "scores_top",
]

Leftovers = Literal["return", "keep"]
BlankCounts = Literal["neither", "either"]
Rejection = Literal["new", "whole"]
_LEFTOVERS = ("return", "keep")
_BLANK_COUNTS = ("neither", "either")
_REJECTION = ("new", "whole")


class DuplicateError(RulesError):
    """A draw or a choice the master game cannot take (see ``code``)."""

    default_code = "duplicate"


@dataclass(frozen=True)
class DrawRules:
    """How a duplicate game draws its racks and when it ends. Field names are JSON keys;
    the defaults are the NTSV's (``docs/duplicate.md`` gives each rule's source)."""

    name: str = "ntsv"
    #: What happens to the tiles the top leaves on the rack: back into the bag before
    #: the next draw ("return"), or kept and completed to a full rack ("keep").
    leftovers: Leftovers = "return"
    #: A draw needs at least this many vowels and consonants (the kept tiles count);
    #: one that has fewer is thrown back and drawn again. 0 = no minimum.
    min_vowels: int = 0
    min_consonants: int = 0
    #: The minimum above holds up to and including this turn; later turns need the
    #: ``late_`` minimum. None = the same minimum all game.
    minimum_until_turn: int | None = None
    late_min_vowels: int = 0
    late_min_consonants: int = 0
    #: The letters counted as vowels; every other letter is a consonant.
    vowels: str = "AEIOU"
    #: A blank counts toward neither minimum, or toward whichever one it helps.
    blank_counts: BlankCounts = "neither"
    #: A blank in the top is replaced on the board by its letter while the bag holds
    #: that letter; the blank goes back into the bag.
    replace_blank: bool = True
    #: The game ends when fewer tiles than this are left (bag plus kept tiles).
    end_below_tiles: int = 7
    #: The game ends when no vowel is left to draw (a blank counts as one).
    end_no_vowel: bool = True
    #: A draw that breaks the minimum goes back into the bag: only the tiles just drawn
    #: ("new"), or the whole rack, kept tiles included ("whole"; the next draw then
    #: takes a full rack).
    rejection: Rejection = "new"
    #: When the tiles left (bag plus kept) cannot give the turn's minimum, the
    #: ``late_`` minimum holds from that turn on instead of the game ending.
    relax_minimum: bool = False
    #: The game ends when the tiles left are all vowels or all consonants, or only one
    #: is left; but not while a blank is among two or more tiles left.
    end_one_kind: bool = False

    def __post_init__(self) -> None:
        def fail(reason: str) -> None:
            raise DuplicateError("invalid_draw_rules", reason=reason)

        if not isinstance(self.name, str) or not self.name:
            fail("name must be a non-empty text")
        if self.leftovers not in _LEFTOVERS:
            fail(f"leftovers must be one of {', '.join(_LEFTOVERS)}")
        if self.blank_counts not in _BLANK_COUNTS:
            fail(f"blank_counts must be one of {', '.join(_BLANK_COUNTS)}")
        if self.rejection not in _REJECTION:
            fail(f"rejection must be one of {', '.join(_REJECTION)}")
        for key in ("min_vowels", "min_consonants", "late_min_vowels", "late_min_consonants"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 7:
                fail(f"{key} must be a whole number 0-7")
        until = self.minimum_until_turn
        if until is not None and (isinstance(until, bool) or not isinstance(until, int)):
            fail("minimum_until_turn must be a whole number or null")
        if until is not None and until < 1:
            fail("minimum_until_turn must be at least 1 or null")
        end = self.end_below_tiles
        if isinstance(end, bool) or not isinstance(end, int) or not 1 <= end <= 15:
            fail("end_below_tiles must be a whole number 1-15")
        if not isinstance(self.vowels, str) or not all("A" <= ch <= "Z" for ch in self.vowels):
            fail("vowels must be capital letters A-Z")
        for key in ("replace_blank", "end_no_vowel", "relax_minimum", "end_one_kind"):
            if not isinstance(getattr(self, key), bool):
                fail(f"{key} must be true or false")

    def minimum(self, turn: int) -> tuple[int, int]:
        """(vowels, consonants) a draw for turn ``turn`` (1-based) must hold."""
        if self.minimum_until_turn is not None and turn > self.minimum_until_turn:
            return self.late_min_vowels, self.late_min_consonants
        return self.min_vowels, self.min_consonants

    def meets_minimum(self, rack: str, turn: int) -> bool:
        """Whether ``rack`` (the whole rack: kept plus drawn) holds the minimum."""
        return self.holds(rack, *self.minimum(turn))

    def holds(self, rack: str, need_v: int, need_c: int) -> bool:
        """Whether ``rack`` holds ``need_v`` vowels and ``need_c`` consonants."""
        vowels = sum(1 for t in rack if t != BLANK and t in self.vowels)
        blanks = rack.count(BLANK)
        consonants = len(rack) - vowels - blanks
        if self.blank_counts == "neither":
            return vowels >= need_v and consonants >= need_c
        short = max(0, need_v - vowels) + max(0, need_c - consonants)
        return short <= blanks

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary of every field."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DrawRules:
        """From a dictionary (a club's JSON); missing fields take the NTSV's values,
        unknown fields and wrong values raise ``invalid_draw_rules`` naming them."""
        if not isinstance(data, Mapping):
            raise DuplicateError("invalid_draw_rules", reason="expected a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise DuplicateError("invalid_draw_rules", reason=f"unknown field(s): {unknown}")
        return cls(**dict(data))


#: The NTSV's duplicate rules (Flanders and the Dutch duplicate clubs).
NTSV = DrawRules()


@dataclass(frozen=True)
class Turn:
    """One turn of the master game, as the spelleider announces it."""

    #: 1-based.
    number: int
    #: The whole rack (kept tiles plus drawn ones), sorted, blanks last.
    rack: str
    #: The tiles drawn this turn (the rest of the rack was kept from the last turn).
    drawn: str
    #: Every play with the top score, in the generator's order.
    tops: tuple[GeneratedPlay, ...]
    #: The top put on the board.
    chosen: GeneratedPlay
    #: The sum of the tops so far, this turn included.
    total: int
    #: Tiles that went back into the bag after the turn (the leftovers, under
    #: "return"), and the squares whose blank was replaced by its letter.
    returned: str = ""
    replaced: tuple[tuple[int, int, str], ...] = ()
    #: Draws thrown back before this one for breaking the minimum, as they went back
    #: (the whole rack under ``rejection="whole"``).
    thrown_back: tuple[str, ...] = ()

    @property
    def score(self) -> int:
        return self.chosen.score


def default_choice(tops: Iterable[GeneratedPlay]) -> GeneratedPlay:
    """The top the engine puts on the board when the spelleider does not choose: the
    one with the fewest blanks (the blanks stay in the game for the room), then the
    first in the generator's order (across before down, then row, column, word)."""
    return min(tops, key=lambda play: sum(1 for ch in play.word if ch.islower()))


class DuplicateGame:
    """The master game: ``draw``, then ``play`` (or ``tops`` and ``play(choice)``),
    until :attr:`ending` is set. ``rules`` gives the board rules (rack size, bingo
    bonus, word list); ``draw_rules`` the duplicate draw rules."""

    def __init__(
        self,
        rules: RuleSet = STANDARD,
        tiles: TileSet = DUTCH,
        draw_rules: DrawRules = NTSV,
        dawg: Dawg | None = None,
    ) -> None:
        self.rules = rules
        self.tiles = tiles
        self.draw_rules = draw_rules
        self.dawg = dawg if dawg is not None else Dawg.default(rules.lexicon)
        # One player who only plays the tops; the draws are kept here, not by the Game.
        solo = dataclasses.replace(
            rules,
            name=f"{rules.name}-duplicate",
            players_min=1,
            end_scoreless_turns=None,
            end_going_out=False,
            turn_limit=None,
        )
        self.game = Game(rules=solo, tiles=tiles, players=("top",), lexicon=self.dawg)
        self.generator = MoveGenerator(self.dawg)
        self.bag: Counter[str] = tiles.bag()
        self.kept = ""
        self.rack: str | None = None
        self.drawn = ""
        #: The draws thrown back for this turn (:meth:`reject`), as they went back.
        self.thrown_back: list[str] = []
        #: The rack of this turn's draw cancelled by :meth:`cancel`: the next draw differs.
        self.cancelled = ""
        self.turns: list[Turn] = []
        #: The board before each turn (index 0 = before turn 1), for checking slips.
        self.positions: list[Game] = []
        self.ending: str | None = None
        self._tops: list[GeneratedPlay] | None = None
        self._check_end()

    # ----------------------------------------------------------------- state

    @property
    def total(self) -> int:
        """The sum of the tops so far."""
        return self.turns[-1].total if self.turns else 0

    @property
    def turn_number(self) -> int:
        """The number of the turn being played (or to be drawn)."""
        return len(self.turns) + 1

    @property
    def pool(self) -> Counter[str]:
        """The tiles the next rack can hold: the bag plus the kept tiles."""
        return self.bag + Counter(self.kept)

    def needed(self) -> int:
        """How many tiles the next draw takes."""
        return min(self.rules.rack_size - len(self.kept), sum(self.bag.values()))

    # ----------------------------------------------------------------- draws

    def draw(self, tiles: str) -> str:
        """Take ``tiles`` (typed in by the spelleider, or the next ones of a bag order)
        out of the bag as this turn's draw; returns the whole rack. Refuses, changing
        nothing, a draw after the end, one of the wrong size, tiles the bag does not
        hold, or a draw that breaks the minimum (throw it back and draw again)."""
        drawn, rack = self._taken(tiles)
        if not self.meets_minimum(rack):
            vowels, consonants = self.minimum()
            raise DuplicateError(
                "duplicate_draw_minimum", rack=rack, vowels=vowels, consonants=consonants
            )
        self.bag -= Counter(drawn)
        self.drawn = drawn
        self.rack = rack
        self._tops = None
        return rack

    def _taken(self, tiles: str) -> tuple[str, str]:
        """``tiles`` as this turn's draw would take them, and the rack they make with the
        kept tiles: refused when the game is over, a rack is drawn already, the draw has
        the wrong size or the bag does not hold it (the checks of a draw and a throw-back)."""
        if self.ending is not None:
            raise DuplicateError("duplicate_over", ending=self.ending)
        if self.rack is not None:
            raise DuplicateError("duplicate_rack_drawn", rack=self.rack)
        drawn = parse_rack(tiles, self.tiles)
        needed = self.needed()
        if len(drawn) != needed:
            raise DuplicateError("duplicate_draw_size", needed=needed, count=len(drawn))
        missing = Counter(drawn) - self.bag
        if missing:
            raise DuplicateError("duplicate_not_in_bag", tiles="".join(sorted(missing.elements())))
        rack = parse_rack(self.kept + drawn, self.tiles)
        if rack == self.cancelled:
            raise DuplicateError("duplicate_draw_as_cancelled", rack=rack)
        return drawn, rack

    def as_cancelled(self, tiles: str) -> bool:
        """Whether ``tiles`` drawn now would give the rack of the draw cancelled
        (:meth:`cancel`), which :meth:`draw` refuses."""
        return bool(self.cancelled) and parse_rack(self.kept + tiles, self.tiles) == self.cancelled

    def cancel(self, rack: str) -> None:
        """Cancel this turn's draw, the rack ``rack`` (FISF §3.6, a spelleider's error):
        every tile of it goes back into the bag, the kept tiles included, and the next
        draw takes a full rack that must differ from ``rack`` (a draw of the same tiles
        is refused, ``duplicate_draw_as_cancelled``: thrown back and drawn again). Called
        before the new draw: on the game as it was before the cancelled one (its tiles are
        still in the bag) or with ``rack`` drawn. Refuses, changing nothing, a rack the
        tiles left could not have given, and a cancel when they can give no other rack
        (``duplicate_no_different_draw``: the FISF ends the game, §3.6, §3.7)."""
        if self.ending is not None:
            raise DuplicateError("duplicate_over", ending=self.ending)
        pool = self.pool + Counter(self.drawn if self.rack is not None else "")
        cancelled = parse_rack(rack, self.tiles)
        missing = Counter(cancelled) - pool
        if missing:
            raise DuplicateError("duplicate_not_in_bag", tiles="".join(sorted(missing.elements())))
        if sum(pool.values()) <= len(cancelled):
            raise DuplicateError("duplicate_no_different_draw", rack=cancelled)
        self.bag = pool
        self.kept = ""
        self.rack, self.drawn, self._tops = None, "", None
        self.thrown_back = []
        self.cancelled = cancelled

    def reject(self, tiles: str) -> str:
        """Throw back ``tiles``, a draw that breaks the minimum (as :meth:`draw` refused
        it): under ``rejection="whole"`` the kept tiles go back into the bag with it, so
        the next draw takes a full rack; under ``"new"`` only the tiles drawn, which
        never left the bag here. Returns the rack thrown back. Refuses, changing
        nothing, what :meth:`draw` would refuse for any other reason, and a draw that
        meets the minimum (``duplicate_draw_meets_minimum``)."""
        drawn, rack = self._taken(tiles)
        if self.meets_minimum(rack):
            raise DuplicateError("duplicate_draw_meets_minimum", rack=rack)
        self.thrown_back.append(rack if self.draw_rules.rejection == "whole" else drawn)
        if self.draw_rules.rejection == "whole":
            self.bag += Counter(self.kept)
            self.kept = ""
        return rack

    def minimum(self) -> tuple[int, int]:
        """(vowels, consonants) this turn's draw must hold: the rules' minimum for the
        turn; under ``relax_minimum`` the ``late_`` one when the tiles left cannot give it."""
        rules = self.draw_rules
        need = rules.minimum(self.turn_number)
        if rules.relax_minimum and not self._possible(*need):
            return rules.late_min_vowels, rules.late_min_consonants
        return need

    def meets_minimum(self, rack: str) -> bool:
        """Whether ``rack`` (kept plus drawn) holds this turn's :meth:`minimum`."""
        return self.draw_rules.holds(rack, *self.minimum())

    def minimum_possible(self) -> bool:
        """Whether any draw from the bag can meet this turn's minimum."""
        return self._possible(*self.minimum())

    def _possible(self, need_v: int, need_c: int) -> bool:
        rules = self.draw_rules
        bag, kept = self.bag, self.kept
        room = self.needed()
        if rules.rejection == "whole" and kept:
            # A draw that fails goes back whole: a full rack can be drawn from everything.
            bag, kept = bag + Counter(kept), ""
            room = min(self.rules.rack_size, sum(bag.values()))
        vowels = sum(n for t, n in bag.items() if t != BLANK and t in rules.vowels)
        blanks = bag[BLANK]
        consonants = sum(bag.values()) - vowels - blanks
        kept_v = sum(1 for t in kept if t != BLANK and t in rules.vowels)
        kept_b = kept.count(BLANK)
        kept_c = len(kept) - kept_v - kept_b
        # The best draw takes what is short first; the rest is free.
        short_v = max(0, need_v - kept_v)
        short_c = max(0, need_c - kept_c)
        if rules.blank_counts == "either":
            take_v = min(short_v, vowels)
            take_c = min(short_c, consonants)
            rest = short_v - take_v + short_c - take_c
            return take_v + take_c + rest <= room and rest <= blanks + kept_b
        return short_v <= vowels and short_c <= consonants and short_v + short_c <= room

    # ----------------------------------------------------------------- tops

    def tops(self) -> list[GeneratedPlay]:
        """Every play with the top score for the rack drawn (empty: no play at all)."""
        if self.rack is None:
            raise DuplicateError("duplicate_no_rack")
        if self._tops is None:
            self._tops = self.generator.tops(self.game, self.rack)
            if not self._tops:
                # No word at all can be made: the spelleider ends the game (interpretation).
                self.ending = "no_play"
        return list(self._tops)

    def play(self, choice: GeneratedPlay | None = None) -> Turn:
        """Put a top on the board (``choice``, or :func:`default_choice`), return the
        leftovers or keep them, replace its blanks, and check the end of the game."""
        tops = self.tops()
        rack = self.rack
        assert rack is not None
        if not tops:
            raise DuplicateError("duplicate_no_play", rack=rack)
        if choice is None:
            choice = default_choice(tops)
        elif choice not in tops:
            raise DuplicateError("duplicate_not_a_top", play=choice.notation, score=tops[0].score)
        self.positions.append(self.game.copy())
        self.game.push(choice.play, rack=rack)
        left = list(rack)
        for _, _, letter in choice.placed:
            left.remove(BLANK if letter.islower() else letter)
        leftover = "".join(left)
        returned = ""
        if self.draw_rules.leftovers == "return":
            self.bag += Counter(leftover)
            returned, self.kept = leftover, ""
        else:
            self.kept = leftover
        replaced = []
        if self.draw_rules.replace_blank:
            for row, col, letter in choice.placed:
                real = letter.upper()
                if letter.islower() and self.bag[real] > 0:
                    self.game.put_real_tile(row, col)
                    self.bag[real] -= 1
                    self.bag[BLANK] += 1
                    replaced.append((row, col, real))
        turn = Turn(
            number=self.turn_number,
            rack=rack,
            drawn=self.drawn,
            tops=tuple(tops),
            chosen=choice,
            total=self.total + choice.score,
            returned=returned,
            replaced=tuple(replaced),
            thrown_back=tuple(self.thrown_back),
        )
        self.turns.append(turn)
        self.thrown_back = []
        self.cancelled = ""
        self.rack = None
        self._tops = None
        self._check_end()
        return turn

    def replay(self, drawn: str, notation: str) -> Turn:
        """Draw ``drawn`` and put the play ``notation`` (the engine's, as a turn's
        ``chosen.notation``) on the board without searching the tops again: for rebuilding
        a master game whose tops were chosen (and checked) before. Refuses a play that
        does not fit, changing nothing."""
        self.draw(drawn)
        try:
            return self.play_known(notation)
        except RulesError:
            self.bag += Counter(self.drawn)
            self.rack, self.drawn = None, ""
            raise

    def play_known(self, notation: str) -> Turn:
        """Put the play ``notation`` on the board for the rack drawn, as a top chosen
        before (its tops are not searched again). Refuses a play that does not fit,
        changing nothing."""
        if self.rack is None:
            raise DuplicateError("duplicate_no_rack")
        move = parse_move(notation)
        if not isinstance(move, Play):
            raise DuplicateError("duplicate_not_a_play", notation=notation)
        result = self.game.preview(move, rack=self.rack)
        direction_down = move.direction is Direction.DOWN
        known = GeneratedPlay(
            result.score,
            move.row,
            move.col,
            direction_down,
            result.notation.split(" ", 1)[1],
            len(result.placed),
            result.bingo,
        )
        self._tops = [known]
        return self.play(known)

    def _check_end(self) -> None:
        rules = self.draw_rules
        pool = +self.pool
        left = sum(pool.values())
        if left < rules.end_below_tiles:
            self.ending = "too_few_tiles"
        elif (
            rules.end_one_kind
            and left
            and (left == 1 or not pool[BLANK])
            and (all(t in rules.vowels for t in pool) or not any(t in rules.vowels for t in pool))
        ):
            self.ending = "one_kind"
        elif rules.end_no_vowel and not any(
            t == BLANK or t in rules.vowels for t in pool.elements()
        ):
            self.ending = "no_vowel"
        elif not self.minimum_possible():
            self.ending = "no_valid_draw"

    def score_slip(self, text: str, claimed: int | None = None, turn: int | None = None) -> Slip:
        """Score a player's slip for ``turn`` (default: the turn being played, whose
        rack is drawn) against the board and rack of that turn: see :func:`score_slip`."""
        if turn is None or turn == self.turn_number:
            if self.rack is None:
                raise DuplicateError("duplicate_no_rack")
            board, rack = self.game, self.rack
            top = self.tops()[0].score if self.tops() else 0
        else:
            board, rack = self.position(turn), self.turns[turn - 1].rack
            top = self.turns[turn - 1].score
        return score_slip(board, rack, text, claimed=claimed, top=top)

    def position(self, number: int) -> Game:
        """The board as it was before turn ``number`` (1-based), for checking slips."""
        if not 1 <= number <= len(self.positions):
            raise DuplicateError("duplicate_no_turn", turn=number)
        return self.positions[number - 1].copy()


def bag_order(text: str, tiles: TileSet = DUTCH, seed: int | None = None) -> list[str]:
    """A whole bag order from ``text`` (letters, ``?`` for a blank, drawn from the
    left): the tiles not written follow in alphabetical order, blanks last, or shuffled
    by ``random.Random(seed)`` when a seed is given. Refuses letters outside the set
    and more of a tile than the set holds.

    >>> "".join(bag_order("ZEBRA", DUTCH)[:7])
    'ZEBRAAA'
    """
    order = [ch for ch in text.strip().upper() if not ch.isspace()]
    for ch in order:
        if not tiles.is_tile(ch):
            raise DuplicateError("unknown_letter", letter=ch, tiles=tiles.name)
    rest = tiles.bag()
    rest.subtract(order)
    over = sorted(t for t, n in rest.items() if n < 0)
    if over:
        tile = over[0]
        raise DuplicateError(
            "too_many_tiles",
            tiles=tiles.name,
            count=tiles.count(tile),
            letter="blank" if tile == BLANK else tile,
        )
    tail = sorted((+rest).elements(), key=lambda t: (t == BLANK, t))
    if seed is not None:
        random.Random(seed).shuffle(tail)
    return order + tail


def play_bag(
    order: Iterable[str],
    rules: RuleSet = STANDARD,
    tiles: TileSet = DUTCH,
    draw_rules: DrawRules = NTSV,
    dawg: Dawg | None = None,
) -> DuplicateGame:
    """The whole master game from a bag order (see :func:`bag_order`), each top the
    :func:`default_choice`. Tiles go back into the bag at its end: the leftovers, a
    blank that was replaced, and a draw thrown back for breaking the minimum (after
    as many throw-backs in a row as the bag has tiles the game ends, ``no_valid_draw``)."""
    game = DuplicateGame(rules, tiles, draw_rules, dawg)
    bag = list(order)
    if Counter(bag) != tiles.bag():
        raise DuplicateError("duplicate_bag_order", tiles=tiles.name, count=tiles.total)
    while game.ending is None:
        for _ in range(len(bag) + len(game.kept) + 1):
            needed = game.needed()
            drawn = "".join(bag[:needed])
            if game.meets_minimum(parse_rack(game.kept + drawn, tiles)):
                break
            kept = game.kept
            game.reject(drawn)
            del bag[:needed]
            # What went back goes to the end of the order: the kept tiles too, if whole.
            bag.extend(kept + drawn if not game.kept else drawn)
        else:
            game.ending = "no_valid_draw"
            return game
        game.draw(drawn)
        del bag[:needed]
        if not game.tops():
            return game
        turn = game.play()
        bag.extend(turn.returned)
        for _, _, letter in turn.replaced:
            bag.remove(letter)
            bag.append(BLANK)
    return game


@dataclass(frozen=True)
class Slip:
    """What a slip (*beurtbriefje*) scores. ``reason`` (a code of
    :data:`rules.MESSAGES`, with ``params``) says why a slip scores 0: the notation
    cannot be read, the play does not fit the board, the rack does not hold its
    letters, or a word is not in the word list. A claimed score that differs from the
    real one is corrected: ``score`` is the real one, ``corrected`` says so."""

    score: int
    claimed: int | None
    reason: str | None = None
    params: tuple[tuple[str, Any], ...] = ()
    #: The play in the engine's notation (``.`` for tiles on the board), when it fits.
    notation: str | None = None
    #: The words it forms with their scores.
    words: tuple[tuple[str, int], ...] = ()
    #: Whether it scores the turn's top (before any penalty).
    is_top: bool = False
    #: What :func:`rules.referee.judge_slip` found wrong with it (codes of
    #: :data:`rules.referee.FAULTS`), the one warning it gives, and the points its
    #: penalty took off ``score``.
    faults: tuple[str, ...] = ()
    warning: str | None = None
    penalty: int = 0

    @property
    def corrected(self) -> bool:
        """A play that counts, whose claimed score was not its real one (before a
        penalty: a slip paid its claimed score less a penalty was not corrected)."""
        return (
            self.reason is None
            and self.claimed is not None
            and self.claimed != self.score + self.penalty
        )


def scores_top(score: int, top: int | None) -> bool:
    """Whether a slip of ``score`` finds the turn's top (``top``: its top score; None while
    not known): the one definition of a top found, for the slip and for the rankings'
    tops and solos. A top of 0 is found by nobody: when no play scores, a slip that
    scores 0 finds nothing, as a slip refused or not handed in scores 0 too.

    >>> scores_top(74, 74), scores_top(70, 74), scores_top(0, 0), scores_top(74, None)
    (True, False, False, False)
    """
    return top is not None and top > 0 and score == top


def score_slip(
    board: Game,
    rack: str,
    text: str,
    *,
    claimed: int | None = None,
    top: int | None = None,
    notation: Notation = Notation.ROWS_NUMBERED,
) -> Slip:
    """Score the play written on a slip, e.g. ``8H WOORD`` or ``H8 woord``, on ``board``
    with ``rack``. The word may be written whole, letters already on the board included
    (as players write it), or in the engine's notation with ``.``; a lowercase letter is a
    blank. Never raises for what a player can write: a slip that cannot score says why.
    ``notation``: how the club writes a position (rows numbered unless told); the slip's
    ``notation`` is the engine's, rows numbered, whatever it was written in.

    >>> game = DuplicateGame()
    >>> _ = game.draw("KAASEIN")
    >>> slip = game.score_slip("8H KAAS", claimed=20)
    >>> slip.score, slip.corrected, slip.reason
    (14, True, None)
    >>> game.score_slip("8H KAAZ").reason
    'not_in_rack'
    """
    try:
        move = parse_move(_through_dots(board, text, notation), notation=notation)
        if not isinstance(move, Play):
            raise DuplicateError("duplicate_not_a_play", notation=text)
        result = board.preview(move, rack=rack)
    except RulesError as exc:
        return Slip(0, claimed, exc.code, tuple(sorted(exc.params.items())))
    for warning in result.warnings:
        if warning.code == "not_in_lexicon":
            return Slip(0, claimed, "not_in_lexicon", warning.params, result.notation, result.words)
    return Slip(
        result.score,
        claimed,
        notation=result.notation,
        words=result.words,
        is_top=scores_top(result.score, top),
    )


def _through_dots(board: Game, text: str, notation: Notation = Notation.ROWS_NUMBERED) -> str:
    """``text`` with each letter written on a square that holds that tile already
    turned into ``.``, so a slip may spell the whole word; anything else is left for
    the notation parser to judge."""
    parts = " ".join(text.split()).split(" ")
    if len(parts) != 2 or not parts[1].isalpha():
        return text
    try:
        row, col, direction = parse_position(parts[0], notation)
    except RulesError:
        return text
    cells = board.board
    out = []
    for i, ch in enumerate(parts[1]):
        r, c = (row, col + i) if direction is Direction.ACROSS else (row + i, col)
        held = cells.letter(r, c) if 0 <= r < SIZE and 0 <= c < SIZE else None
        out.append("." if held and held.upper() == ch.upper() else ch)
    return f"{parts[0]} {''.join(out)}"
