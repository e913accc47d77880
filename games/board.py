"""What the board and replay pages show, built from a replayed game: squares with their
premiums and tiles, the scoresheet with running totals, whose turn it is, unseen tiles."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby

from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

import rules
from clubs.history_display import Reading
from games.engine import Replay, names_at_table, ruleset_of
from games.history_text import result_text
from games.models import Game, Move
from games.services import result_of
from rules.board import COLUMNS, SIZE, Notation, premium, square_name
from rules.result import places as result_places

#: Premium squares: the short label on the square (the same in Dutch and English: 3W is
#: "drie keer de woordwaarde") and the name a screen reader says.
PREMIUMS: dict[str, tuple[str, Promise]] = {
    "tw": ("3W", _("triple word score")),
    "dw": ("2W", _("double word score")),
    "tl": ("3L", _("triple letter score")),
    "dl": ("2L", _("double letter score")),
}

#: Rule-set names as the pages show them (the engine's own name is a code).
RULE_SET_LABELS: dict[str, Promise] = {
    "gouds8": _("Gouds 8"),
    "standard": _("standard rules"),
    "sbnl": _("SBNL tournament rules"),
    "naspa": _("NASPA rules"),
}


def rule_set_label(ruleset: rules.RuleSet) -> str:
    """A rule set's name for people; a club's own variant is called just that."""
    return str(RULE_SET_LABELS.get(ruleset.name, _("club variant")))


def table_unplayable(game: Game) -> str | None:
    """Why this table cannot be played on the board, or None: its rule set is for another
    number of players than sit at it (a table of 4 under Gouds 8, which is for 2). Its final
    scores can still be entered on the result page; the board says so instead of failing."""
    ruleset = ruleset_of(game)
    count = len(game.seat_list)
    if ruleset.players_min <= count <= ruleset.players_max:
        return None
    if count > ruleset.players_max:
        text = _(
            "This game follows %(rules)s, for at most %(limit)s players, and this table "
            "has %(count)s: its moves cannot be entered on the board. Enter the final "
            "scores on the result page."
        )
    else:
        text = _(
            "This game follows %(rules)s, for at least %(limit)s players, and this table "
            "has %(count)s: its moves cannot be entered on the board. Enter the final "
            "scores on the result page."
        )
    limit = ruleset.players_max if count > ruleset.players_max else ruleset.players_min
    return str(text) % {"rules": rule_set_label(ruleset), "limit": limit, "count": count}


@dataclass(frozen=True)
class SquareView:
    name: str
    letter: str
    value: int | None
    is_blank: bool
    premium: str
    state: str  # "", "last" (placed by the last move) or "preview"

    @property
    def premium_label(self) -> str:
        return PREMIUMS[self.premium][0] if self.premium else ""


#: A square's text for a screen reader only (Bootstrap's class): the square's name before
#: what it shows, and after it what a sighted player reads from its colour or slant.
HIDDEN = '<span class="visually-hidden">{}</span>'


@lru_cache(maxsize=8192)
def _cell(square: SquareView, language: str | None, pressable: bool) -> SafeString:
    """A square's cell, built once per look, language and kind of board: a board page has
    225 of them, and a square looks the same on every board where it holds the same tile
    (or none). Its name is its content, which holds what it shows ("H8 W 5"; "A1 3W
    triple word score"; "J8 O blank"), so that voice control and the name agree. No
    commas: a browser reads the hidden parts as blocks, with a space before each. A square
    is a button only where pressing it does something (`pressable`: the board entry, where
    it chooses where a word starts); elsewhere the board is a table of plain cells."""
    name, letter, premium, state = square.name, square.letter, square.premium, square.state
    classes = " ".join(
        name
        for name, wanted in (
            ("sq", True),
            (premium, bool(premium)),
            ("tile", bool(letter)),
            ("blank", square.is_blank),
            (state, bool(state)),
        )
        if wanted
    )
    inside = format_html(HIDDEN, f"{name} " if letter or premium else name)
    if letter:
        inside = format_html("{}{}", inside, letter)
        if square.value:
            inside = format_html("{}<sub> {}</sub>", inside, square.value)
        if square.is_blank:
            inside = format_html("{}{}", inside, format_html(HIDDEN, f" {_('blank')}"))
    elif premium:
        label, said = PREMIUMS[premium]
        inside = format_html(
            '{}<span class="prem">{}</span>{}', inside, label, format_html(HIDDEN, f" {said}")
        )
    if pressable:
        # One stop in the tab order, H8's, moved by the arrow keys (games/board.js).
        return format_html(
            '<div class="cell" role="gridcell"><button type="button" class="{}" '
            'data-square="{}" tabindex="{}">{}</button></div>',
            classes,
            name,
            0 if name == "H8" else -1,
            inside,
        )
    return format_html(
        '<div class="cell" role="cell"><div class="{}" data-square="{}">{}</div></div>',
        classes,
        name,
        inside,
    )


def row_labels(notation: Notation = Notation.ROWS_NUMBERED) -> tuple[str, ...]:
    """The labels of the board's rows, top to bottom: 1-15, or A-O rows lettered."""
    if notation is Notation.ROWS_LETTERED:
        return tuple(COLUMNS)
    return tuple(str(number) for number in range(1, SIZE + 1))


def column_labels(notation: Notation = Notation.ROWS_NUMBERED) -> tuple[str, ...]:
    """The labels of the board's columns, left to right: A-O, or 1-15 rows lettered."""
    if notation is Notation.ROWS_LETTERED:
        return tuple(str(number) for number in range(1, SIZE + 1))
    return tuple(COLUMNS)


def grid_html(
    rows: Sequence[Sequence[SquareView]],
    notation: Notation = Notation.ROWS_NUMBERED,
    *,
    pressable: bool = False,
) -> SafeString:
    """The board's rows as HTML, each labelled in ``notation``; its squares buttons where
    they can be pressed (`_cell`). Joined here, not in the template: the template language
    costs ten times as much per cell, and the board page is the one reloaded after every
    move."""
    language = get_language()
    row_label = (
        '<div class="board-row" role="row"><div class="board-label" role="rowheader">{}</div>'
    )
    # Every cell is built by format_html, the row labels are numbers or letters A-O.
    return mark_safe(
        "".join(
            row_label.format(label)
            + "".join(_cell(square, language, pressable) for square in row)
            + "</div>"
            for label, row in zip(row_labels(notation), rows, strict=True)
        )
    )


@dataclass(frozen=True)
class SheetLine:
    move: Move
    player_name: str
    is_current: bool

    @property
    def is_play(self) -> bool:
        return isinstance(_parsed(self.move.notation), rules.Play)

    @property
    def text(self) -> str:
        """The move as a scoresheet says it: a play in notation, every other turn in words."""
        return move_in_words(self.move.notation)


def _parsed(notation: str) -> rules.Move | None:
    try:
        return rules.parse_move(notation)
    except rules.RulesError:
        return None


def move_in_words(notation: str) -> str:
    """``-3`` reads "exchanges 3", ``--`` "challenge: word removed", ``swap H5`` "blank on
    H5 swapped"; a play keeps its notation (position and word), the way a scoresheet
    writes it. What cannot be read (an old row) is shown as typed."""
    move = _parsed(notation)
    if isinstance(move, rules.Play) or move is None:
        return notation
    if isinstance(move, rules.Exchange):
        text = ngettext("exchanges %(count)s tile", "exchanges %(count)s tiles", move.count) % {
            "count": move.count
        }
        return f"{text}: {move.tiles}" if move.tiles else text
    if isinstance(move, rules.Pass):
        return str(_("passes"))
    if isinstance(move, rules.BlankSwap):
        names = [square_name(row, col) for row, col in move.squares]
        return ngettext(
            "blank on %(squares)s swapped", "blanks on %(squares)s swapped", len(names)
        ) % {"squares": str(_(" and ")).join(names)}
    if isinstance(move, rules.Challenge):
        return str(_("challenge: word valid") if move.valid else _("challenge: word removed"))
    if isinstance(move, rules.FlagFall):
        return str(_("flag fell"))
    if isinstance(move, rules.TimePenalty):
        return ngettext(
            "%(minutes)s minute over time", "%(minutes)s minutes over time", move.minutes
        ) % {"minutes": move.minutes}
    if isinstance(move, rules.Annul):
        return str(_("not properly played"))
    if move.tiles:
        return str(_("left on the rack: %(tiles)s")) % {"tiles": move.tiles}
    return str(_("nothing left on the rack"))


def grouped_tiles(tiles: str) -> str:
    """``AAABCC??`` as ``AAA B CC ??``: readable, and it wraps on a narrow screen."""
    return " ".join("".join(group) for _letter, group in groupby(tiles))


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
    names: tuple[str, ...]

    @property
    def title(self) -> str:
        """The players in table order: "Anke – Bram – Cor"."""
        return " – ".join(self.names)

    @property
    def seats(self) -> list[tuple[int, str, int, int]]:
        """Each seat in table order: (position, name, score, turns taken)."""
        return [
            (position, name, self.scores[position], self.turns[position])
            for position, name in enumerate(self.names)
        ]

    @property
    def pending_end_rack_names(self) -> list[str]:
        return [self.names[position] for position in self.pending_end_racks]

    @property
    def winner_names(self) -> list[str]:
        """Who won the finished game (all names: a draw; none: annulled or running)."""
        if self.result is None or self.result.ending == "annulled":
            return []
        fell = [position == self.result.flag_fallen for position in range(len(self.names))]
        outcome = "flag_fall" if any(fell) else "normal"
        places = result_places(outcome, scores=self.result.scores, flag_fell=fell)
        return [name for name, place in zip(self.names, places, strict=True) if place == 1]

    @property
    def grid(self) -> SafeString:
        return grid_html(self.rows)

    @property
    def takes_a_move(self) -> bool:
        """Whether the board entry asks for the next move (who starts is known, the game is
        not over, no end racks pending): only then does pressing a square do something."""
        started = self.game.starter is not None or bool(self.lines)
        return started and not self.is_over and not self.pending_end_racks

    @property
    def pressable_grid(self) -> SafeString:
        """The board entry's: a square pressed chooses where a word starts."""
        return grid_html(self.rows, pressable=True)

    @property
    def ruleset_label(self) -> str:
        return rule_set_label(self.ruleset)

    @property
    def unseen_grouped(self) -> str:
        return grouped_tiles(self.unseen)

    @property
    def has_bingo_bonus(self) -> bool:
        return self.ruleset.bingo_bonus > 0

    @property
    def to_move_name(self) -> str | None:
        return None if self.to_move is None else self.names[self.to_move]

    @property
    def problems(self) -> list[SheetLine]:
        return [line for line in self.lines if line.move.problem]


def squares(
    board: rules.Board,
    tiles: rules.TileSet,
    *,
    highlight: Iterable[tuple[int, int, str]] = (),
    state: str = "last",
    notation: Notation = Notation.ROWS_NUMBERED,
) -> list[list[SquareView]]:
    marked = {(row, col): letter for row, col, letter in highlight}
    rows = []
    for row in range(SIZE):
        line = []
        for col in range(SIZE):
            letter = board.letter(row, col) or marked.get((row, col), "")
            line.append(
                SquareView(
                    name=square_name(row, col, notation),
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
    names = names_at_table(game)
    result = current.result
    return BoardView(
        game=game,
        rows=rows,
        columns="ABCDEFGHIJKLMNO",
        lines=[
            SheetLine(move=move, player_name=names[move.seat], is_current=move.number == upto)
            for move in moves
        ],
        scores=current.scores,
        to_move=current.to_move,
        turns=tuple(current.turns_taken(player) for player in range(len(current.players))),
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


def result_summary(game: Game) -> str:
    """The game's stored result in one sentence, as the history says it: the scores, how it
    ended and who won ("Anna 412 – 380 Bert, Anna wint"; "walk-over: Cor, Anna 300, Bert
    350, Bert wint"). The stored result, not the board's: a final score typed without moves,
    a walk-over or an annulled game has no board to read it from. Empty without a result."""
    if not game.has_result:
        return ""
    names = tuple(player.name for player in game.players)
    return result_text(result_of(game).snapshot(), Reading(names=names))
