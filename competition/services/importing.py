"""Importing results from a spreadsheet (CSV): read, preview, then write all or nothing.

Clubs keep their history in spreadsheets. One row per game (a mirrored second row for the
same game is accepted when it agrees). Three steps, so nothing changes by surprise:

1. `results_import_read` parses the bytes strictly (pure: no database). Any bad row refuses
   the whole file with its line number and reason.
2. `results_import_plan` reads the database and says what would happen: games to add,
   results to enter or to replace (old → new), names that are not entrants with the closest
   club players suggested, rounds to create or publish. It writes nothing.
3. `results_import_apply` plans again under a lock and writes the plan through the games
   services (every result leaves a history entry). It refuses when the plan differs from
   the one the user confirmed (`expected_fingerprint`), when a name is undecided, or when a
   result would be replaced without `replace`.
"""

import difflib
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from clubs.history import HistoryAction, HistoryReason, history_record
from clubs.inputs import capped
from clubs.locks import club_lock
from clubs.models import Membership, Player
from competition.core import results_csv
from competition.core.results_csv import (
    BYE,
    MIRRORED,
    ImportRow,
    TableRow,
    name_key,
    without_mirrored,
)
from competition.models import Competition, Entrant, Round
from competition.rulesets import game_rules_for, ruleset_for
from competition.services import CompetitionError
from competition.services.rounds import round_import, round_update_status
from competition.versioning import competition_touched
from games.locks import games_lock
from games.models import Game
from games.policy import record_refusal
from games.services import (
    MAX_SCORE,
    MIN_SCORE,
    PairingSpec,
    ResultError,
    ResultInput,
    ResultKind,
    game_record_result,
    games_create,
    played_without,
    result_fields,
    result_kind_of,
)

MAX_QUESTIONS = 300  # names to decide on one page (each is a form field)
MAX_NAME = cast(int, Player._meta.get_field("name").max_length)  # a CharField's
LIMITS = results_csv.Limits(max_name=MAX_NAME, min_score=MIN_SCORE, max_score=MAX_SCORE)
SUGGESTIONS = 3
SUGGESTION_CUTOFF = 0.7  # "Anke de Vreis" ~ "Anke de Vries" is 0.92; "Anna" ~ "Anne" 0.75


# --- step 1: reading the file (competition.core.results_csv) -------------------------------

MESSAGES = {
    "too_large": _("The file is larger than %(size)s MB; a results file is much smaller."),
    "not_utf8": _(
        "Line %(line)s: the file is not saved as UTF-8 (a letter such as é cannot "
        "be read). Save it as “CSV UTF-8” and upload it again."
    ),
    "missing_columns": _("Line 1: the columns %(missing)s are missing."),
    "too_many_rows": _("Line %(line)s: a file holds at most %(count)s results; split it."),
    "not_csv": _(
        "Line %(line)s: this is not a readable CSV line (a field is far too long, or "
        "a quote is not closed)."
    ),
    "no_results": _("The file holds no results."),
    "bad_number": _(
        "Line %(line)s: “%(column)s” must be a whole number from %(low)s to "
        "%(high)s, not “%(value)s”."
    ),
    "empty": _("Line %(line)s: “%(column)s” is empty."),
    "control_character": _(
        "Line %(line)s: “%(column)s” contains a control character (“%(value)s”)."
    ),
    "name_too_long": _(
        "Line %(line)s: the name in “%(column)s” is longer than %(max)s characters."
    ),
    "unknown_outcome": _("Line %(line)s: unknown outcome “%(outcome)s”; use one of %(known)s."),
    "no_player": _("Line %(line)s: the player is missing."),
    "bye_with_opponent": _("Line %(line)s: a bye has no opponent."),
    "no_opponent": _("Line %(line)s: the opponent is missing (only a bye has none)."),
    "against_self": _("Line %(line)s: a player cannot play against themselves."),
    "scores_not_allowed": _(
        "Line %(line)s: a game with outcome “%(outcome)s” has no board points; "
        "leave score and opponent_score empty."
    ),
    # The long form (one row per player; rows of one round and table are one game).
    "long_score_not_allowed": _(
        "Line %(line)s: a player with outcome “%(outcome)s” has no board points; leave "
        "the score empty."
    ),
    "table_size": _(
        "Line %(line)s: round %(round)s, table %(table)s has %(count)s players; a table has 2 to 4."
    ),
    "player_twice": _("Line %(line)s: %(name)s is already at this table."),
    "annulled_not_everywhere": _(
        "Line %(line)s: round %(round)s, table %(table)s: an annulled game says “annulled” "
        "on the row of every player."
    ),
    "bye_at_table": _("Line %(line)s: a bye is a row of its own, without a table."),
    "forfeit_with_scores": _(
        "Line %(line)s: round %(round)s, table %(table)s: a forfeited game has no board "
        "points and no flag; leave the scores empty."
    ),
    "every_flag_fell": _(
        "Line %(line)s: round %(round)s, table %(table)s: every player's flag fell; then "
        "no flag decides. Enter it as “normal”."
    ),
}


def csv_error_message(error: results_csv.CsvError) -> Any:
    """The reader's error in the reader's language."""
    return MESSAGES[error.code] % error.params


def _refuse(errors: list[Any], kind: type[CompetitionError] = CompetitionError) -> CompetitionError:
    errors = capped(errors)
    return kind(errors[0], errors=errors)


def results_import_read(*, data: bytes) -> list[ImportRow] | list[TableRow]:
    """Read and check every row; raises with all errors (capped), each with its line."""
    try:
        return results_csv.read(data, limits=LIMITS)
    except results_csv.CsvRefused as refused:
        # Capped first: only the errors shown are put into words (a bad file has thousands).
        shown = capped(list(refused.errors))
        messages = [
            csv_error_message(e) if isinstance(e, results_csv.CsvError) else e for e in shown
        ]
        raise CompetitionError(messages[0], errors=messages) from None
    except results_csv.CsvError as error:
        raise CompetitionError(csv_error_message(error)) from None


# --- step 2: the plan (reads only) ---------------------------------------------------------


@dataclass(frozen=True)
class PlayerOption:
    player_id: int
    name: str
    entrant: bool


@dataclass(frozen=True)
class NameQuestion:
    """A name in the file that is not exactly one entrant: someone must say who it is."""

    key: str
    name: str
    lines: tuple[int, ...]
    options: tuple[PlayerOption, ...]  # the club's players of this name, then close names
    exact: int  # how many of the options carry exactly this name

    @property
    def default(self) -> int | str | None:
        """The club's only player of this name; a new player when nobody is close; else
        undecided (""): a likely typo must be settled by a person."""
        if self.exact == 1:
            return self.options[0].player_id
        return None if not self.options else UNDECIDED

    @property
    def suggestions(self) -> str:
        return ", ".join(option.name for option in self.options)


UNDECIDED = ""


@dataclass(frozen=True)
class ImportDecisions:
    """What the user decided. `players` maps a name key to an existing player id, or to
    None for a new player; names left out take the club's only player of that name."""

    players: Mapping[str, int | None] = field(default_factory=dict)
    create_unknown: bool = False  # names no club player carries become new players
    replace: bool = False  # existing results may be overwritten


class Action:
    ADD = "add"  # a new game with its result
    ENTER = "enter"  # a paired game without a result gets one
    REPLACE = "replace"  # a game's result changes
    SAME = "same"  # the game already has this result


@dataclass(frozen=True)
class PlannedGame:
    line: int
    round: int
    table: int | None
    action: str
    # Name keys of the players, in the game's own order: a pair of the short form (None
    # for a bye's opponent), or the 1 to 4 players of the long form.
    keys: tuple[str | None, ...]
    names: tuple[str | None, ...]
    result: ResultInput | None  # None for a bye
    game_id: int | None = None
    version: int | None = None
    before: ResultInput | None = None


@dataclass(frozen=True)
class ImportPlan:
    rows: int
    questions: tuple[NameQuestion, ...]
    choices: Mapping[str, int | str | None]  # per question: player id, None (new), UNDECIDED
    new_players: tuple[str, ...]
    new_entrants: tuple[str, ...]
    games: tuple[PlannedGame, ...]
    rounds_created: tuple[int, ...]
    rounds_published: tuple[int, ...]
    errors: tuple[Any, ...]
    fingerprint: str

    def of(self, action: str) -> list[PlannedGame]:
        return [game for game in self.games if game.action == action]

    @property
    def undecided(self) -> list[NameQuestion]:
        return [q for q in self.questions if self.choices.get(q.key) == UNDECIDED]

    @property
    def can_apply(self) -> bool:
        return not self.errors and not self.undecided

    @property
    def changes(self) -> int:
        return sum(game.action != Action.SAME for game in self.games)


# A resolved name: the existing player's id (None: a new player) and the name to show.
Resolved = tuple[int | None, str]


def results_import_plan(
    *,
    competition: Competition,
    rows: list[ImportRow] | list[TableRow],
    decisions: ImportDecisions,
) -> ImportPlan:
    """What importing `rows` would do now, given the user's decisions on names."""
    errors: list[Any] = []
    questions, choices, players = _resolve_names(competition, rows, decisions, errors)
    numbers = {row.round for row in rows}
    rounds = {r.number: r for r in competition.rounds.filter(number__in=numbers)}
    if competition.number_of_rounds:
        errors.extend(
            ngettext_lazy(
                "Line %(line)s: this tournament has %(count)s round.",
                "Line %(line)s: this tournament has %(count)s rounds.",
                competition.number_of_rounds,
            )
            % {"line": row.line, "count": competition.number_of_rounds}
            for row in rows
            if row.round > competition.number_of_rounds
        )
    round_games: dict[int, list[Game]] = {number: [] for number in numbers}
    number_of = {r.pk: number for number, r in rounds.items()}
    for game in Game.objects.filter(round__in=list(rounds.values())).with_seats():
        round_games[number_of[game.round_id]].append(game)
    with_moves = set(
        Game.objects.filter(round__in=list(rounds.values()), moves__isnull=False)
        .values_list("pk", flat=True)
        .distinct()
    )
    planned: list[PlannedGame] = []
    short = [row for row in rows if isinstance(row, ImportRow)]
    tables = [row for row in rows if isinstance(row, TableRow)]
    most = ruleset_for(competition).players_max if tables else 2
    errors.extend(
        _("Line %(line)s: %(rules)s is played by at most %(count)s players at a table.")
        % {"line": row.line, "rules": competition.get_rules_display(), "count": most}
        for row in tables
        if len(row.players) > most
    )
    ordered: list[ImportRow | TableRow] = [*without_mirrored(short), *tables]
    for row in ordered:
        try:
            if isinstance(row, TableRow):
                planned.append(_plan_table(row, players, round_games[row.round], with_moves))
            else:
                planned.append(_plan_game(row, players, round_games[row.round], with_moves))
        except CompetitionError as error:
            errors.append(error.message)
    errors.extend(_seat_conflicts(planned, players, round_games))

    entrant_ids = set(competition.entrants.values_list("player_id", flat=True))
    playing = {
        key
        for game in planned
        for key in game.keys
        if key is not None and choices.get(key) != UNDECIDED
    }
    touched = sorted({game.round for game in planned})
    plan = ImportPlan(
        rows=len(rows),
        questions=tuple(questions),
        choices=choices,
        new_players=tuple(sorted(players[key][1] for key in playing if players[key][0] is None)),
        new_entrants=tuple(
            sorted(players[key][1] for key in playing if players[key][0] not in entrant_ids)
        ),
        games=tuple(planned),
        rounds_created=tuple(number for number in touched if number not in rounds),
        rounds_published=tuple(
            number
            for number in touched
            if number in rounds and rounds[number].status == Round.Status.DRAFT
        ),
        errors=tuple(capped(errors)),
        fingerprint="",
    )
    state = {
        "competition": competition.pk,
        "players": sorted((key, player_id) for key, (player_id, _name) in players.items()),
        "entrants": sorted(entrant_ids & {players[key][0] for key in playing}),
        "rounds": sorted((n, r.pk, r.status) for n, r in rounds.items()),
        "games": [_game_state(game) for game in planned],
        "undecided": sorted(q.key for q in plan.undecided),
    }
    digest = hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()
    return replace(plan, fingerprint=digest[:32])


def _game_state(game: PlannedGame) -> list[Any]:
    def result(value: ResultInput | None) -> list[Any] | None:
        return None if value is None else [value.kind, *value.scores]

    return [
        game.line,
        game.round,
        game.table,
        game.action,
        list(game.keys),
        game.game_id,
        game.version,
        result(game.result),
        result(game.before),
    ]


def _names_in(row: ImportRow | TableRow) -> tuple[str, ...]:
    return row.players if isinstance(row, TableRow) else (row.player, row.opponent)


def _resolve_names(
    competition: Competition,
    rows: list[ImportRow] | list[TableRow],
    decisions: ImportDecisions,
    errors: list[Any],
) -> tuple[list[NameQuestion], dict[str, int | str | None], dict[str, Resolved]]:
    """Match the file's names to entrants; ask about the others (club players suggested)."""
    written: dict[str, str] = {}
    lines: dict[str, list[int]] = {}
    for row in rows:
        for name in _names_in(row):
            if name:
                written.setdefault(name_key(name), name)
                lines.setdefault(name_key(name), []).append(row.line)
    entrant_ids = set(competition.entrants.values_list("player_id", flat=True))
    club_players: dict[str, list[PlayerOption]] = {}
    # The club's players and the competition's entrants (who normally are club players).
    for player_id, name in (
        Player.objects.filter(Q(memberships__club=competition.club) | Q(pk__in=entrant_ids))
        .distinct()
        .values_list("pk", "name")
        .order_by("name", "pk")
    ):
        option = PlayerOption(player_id=player_id, name=name, entrant=player_id in entrant_ids)
        club_players.setdefault(name_key(name), []).append(option)
    club_ids = {option.player_id: option for group in club_players.values() for option in group}

    club_names = list(club_players)
    questions: list[NameQuestion] = []
    choices: dict[str, int | str | None] = {}
    players: dict[str, Resolved] = {}
    for key, name in written.items():
        same_name = club_players.get(key, [])
        entrants = [option for option in same_name if option.entrant]
        if len(entrants) == 1:
            players[key] = (entrants[0].player_id, entrants[0].name)
            continue
        close = []
        if len(questions) < MAX_QUESTIONS:  # beyond, the file is refused: spare the time
            close = difflib.get_close_matches(
                key, [k for k in club_names if k != key], n=SUGGESTIONS, cutoff=SUGGESTION_CUTOFF
            )
        options = tuple(same_name) + tuple(
            option for other in close for option in club_players[other]
        )
        question = NameQuestion(
            key=key,
            name=name,
            lines=tuple(dict.fromkeys(lines[key])),
            options=options[: len(same_name) + SUGGESTIONS],
            exact=len(same_name),
        )
        questions.append(question)
        choice: int | str | None = UNDECIDED
        if key in decisions.players:
            choice = decisions.players[key]
            if choice is not None and choice not in club_ids:
                errors.append(
                    _("Line %(line)s: choose a player of the club for “%(name)s”.")
                    % {"line": question.lines[0], "name": name}
                )
                choice = UNDECIDED
        elif question.exact == 1:
            choice = question.default
        elif question.exact == 0 and decisions.create_unknown:
            choice = None
        choices[key] = choice
        # An undecided name is planned as a new player: it has no games yet.
        chosen = club_ids.get(choice) if isinstance(choice, int) else None
        players[key] = (chosen.player_id, chosen.name) if chosen else (None, name)
    if len(questions) > MAX_QUESTIONS:
        errors.append(
            _(
                "The file holds %(count)s names that are not entrants; at most %(max)s can "
                "be settled at once. Enter the players first, or import in parts."
            )
            % {"count": len(questions), "max": MAX_QUESTIONS}
        )
    return questions, choices, players


def _identity(players: dict[str, Resolved], key: str) -> int | str:
    """A player as the database will know them: id, or the name of one still to create."""
    player_id = players[key][0]
    return player_id if player_id is not None else f"new:{key}"


def _plan_game(
    row: ImportRow, players: dict[str, Resolved], games: list[Game], with_moves: set[int]
) -> PlannedGame:
    # The pair in the file's order, or in the game's once swapped; None: a bye's opponent.
    keys: tuple[str, str | None] | tuple[str | None, str]
    names: tuple[str, str | None] | tuple[str | None, str]
    keys = (name_key(row.player), name_key(row.opponent) if row.opponent else None)
    ids = {players[key][0] for key in keys if key is not None}
    names = (players[keys[0]][1], players[keys[1]][1] if keys[1] else None)
    result = (
        None if row.kind == BYE else ResultInput.of_pair(row.kind, row.score, row.opponent_score)
    )
    wanted = {players[keys[0]][0], players[keys[1]][0] if keys[1] else None}
    game = None
    if None not in ids:
        game = next((g for g in games if _pair_ids(g) == wanted), None)
    if game is None:
        return PlannedGame(row.line, row.round, row.table, Action.ADD, keys, names, result)
    if game.seat_list[0].player_id != players[keys[0]][0]:
        keys, names = (keys[1], keys[0]), (names[1], names[0])
        result = ResultInput.of_pair(
            MIRRORED.get(row.kind, row.kind), row.opponent_score, row.score
        )
    planned = PlannedGame(
        row.line, row.round, game.table, Action.SAME, keys, names, result, game.pk, game.version
    )
    return _planned_change(planned, game, with_moves)


def _planned_change(planned: PlannedGame, game: Game, with_moves: set[int]) -> PlannedGame:
    """What the import does to a game it found: nothing when its result is the file's
    (or it is a bye), else enter or replace it; refused for a game entered move by move,
    whose result follows from its moves."""
    if game.is_bye:
        return planned
    kind = result_kind_of(game)
    before = None if kind is None else ResultInput(kind, game.scores)
    count = len(game.seat_list)
    try:
        after = result_fields(planned.result, count)  # type: ignore[arg-type]
    except ResultError as error:
        raise CompetitionError(
            _("Line %(line)s: %(reason)s") % {"line": planned.line, "reason": error.message}
        ) from None
    if before is not None and result_fields(before, count) == after:
        return planned
    if game.pk in with_moves:
        raise CompetitionError(
            _(
                "Line %(line)s: %(game)s is entered move by move; its result follows from "
                "the moves and cannot be imported."
            )
            % {"line": planned.line, "game": game}
        )
    action = Action.ENTER if before is None else Action.REPLACE
    return replace(planned, action=action, before=before)


def _plan_table(
    row: TableRow, players: dict[str, Resolved], games: list[Game], with_moves: set[int]
) -> PlannedGame:
    """A game of the long form: found among the round's games by its players (in any seat
    order: the scores follow the game's seats), or a new game in the file's order."""
    keys = tuple(name_key(player) for player in row.players)
    names = tuple(players[key][1] for key in keys)
    ids = [players[key][0] for key in keys]
    result = None if row.kind == BYE else ResultInput(row.kind, row.scores)
    game = None
    if None not in ids:
        wanted = set(ids) if len(ids) > 1 else {*ids, None}
        game = next((g for g in games if _pair_ids(g) == wanted), None)
    if game is None:
        return PlannedGame(row.line, row.round, row.table, Action.ADD, keys, names, result)
    order = [ids.index(seat.player_id) for seat in game.seat_list]
    if result is not None and order != list(range(len(order))):
        result = _reseated(result, order)
    keys = tuple(keys[i] for i in order)
    names = tuple(names[i] for i in order)
    planned = PlannedGame(
        row.line, row.round, game.table, Action.SAME, keys, names, result, game.pk, game.version
    )
    return _planned_change(planned, game, with_moves)


def _reseated(result: ResultInput, order: list[int]) -> ResultInput:
    """`result` typed in the file's order, told in the game's seat order (`order[seat]` is
    the file's position of the game's seat)."""
    outcome, marked = ResultKind.MEANING[result.kind]
    seats = frozenset(seat for seat, filed in enumerate(order) if filed in marked)
    kind = ResultKind.code_of(outcome, seats, len(order))
    assert kind is not None  # the same seats, renumbered: the same kind of code
    return ResultInput(kind, tuple(result.scores[i] for i in order))


def _pair_ids(game: Game) -> set[int | None]:
    """The players of a game of the short form's pairs (a bye: its player and None)."""
    ids: set[int | None] = {seat.player_id for seat in game.seat_list}
    return ids if len(ids) > 1 else {*ids, None}


def _seat_conflicts(
    planned: list[PlannedGame], players: dict[str, Resolved], round_games: dict[int, list[Game]]
) -> list[Any]:
    """Players twice in a round, and tables taken twice, among the file and the database."""
    errors: list[Any] = []
    seen: dict[tuple[int, int | str], PlannedGame] = {}
    tables: dict[tuple[int, int], PlannedGame] = {}
    for game in planned:
        for key, name in zip(game.keys, game.names, strict=True):
            if key is None:
                continue
            earlier = seen.setdefault((game.round, _identity(players, key)), game)
            if earlier is not game:
                errors.append(
                    _("Line %(line)s: %(name)s already plays in round %(round)s (line %(other)s).")
                    % {"line": game.line, "name": name, "round": game.round, "other": earlier.line}
                )
        if game.action == Action.ADD and game.table is not None:
            earlier = tables.setdefault((game.round, game.table), game)
            if earlier is not game:
                errors.append(
                    _("Line %(line)s: table %(table)s appears twice in round %(round)s.")
                    % {"line": game.line, "table": game.table, "round": game.round}
                )
    for game in planned:
        if game.action != Action.ADD:
            continue
        ids = {players[key][0] for key in game.keys if key is not None} - {None}
        for other in round_games[game.round]:
            if ids & _pair_ids(other):
                errors.append(
                    _("Line %(line)s: round %(round)s already has a game %(game)s.")
                    % {"line": game.line, "round": game.round, "game": other}
                )
            elif game.table is not None and other.table == game.table:
                errors.append(
                    _("Line %(line)s: table %(table)s in round %(round)s is taken (%(game)s).")
                    % {"line": game.line, "table": game.table, "round": game.round, "game": other}
                )
    return errors


def describe_result(result: ResultInput | None, names: tuple[str | None, ...] | None = None) -> str:
    """A result as a person reads it: "320 – 290" (at a table "320 – 290 – 301"), or the
    outcome's name, with the players' `names` where it is about one of them
    ("vlag gevallen: Anke")."""
    if result is None:
        return str(_("bye"))
    named = [name for name in names or () if name]
    choices = (
        ResultKind.for_table(named)
        if names and len(named) == len(names) and len(named) >= 2
        else ResultKind.choices
    )
    label = dict(choices).get(result.kind, result.kind)
    scores = " – ".join(str(score) for score in result.scores if score is not None)
    if result.kind == ResultKind.NORMAL:
        return scores
    if result.kind in ResultKind.SCORED or played_without(result.kind, result.scores):
        return f"{scores} ({label})"
    return str(label)


# --- step 3: writing -------------------------------------------------------------------


@dataclass(frozen=True)
class ImportSummary:
    rounds: int
    games: int
    replaced: int
    new_players: int
    published: tuple[int, ...] = ()  # draft rounds the import published


class ImportPlanChanged(CompetitionError):
    """The data changed since the preview the user confirmed; `plan` is the new one."""

    text = _(
        "Something changed since the preview (another secretary saved a result?). "
        "Check the new preview and confirm again."
    )

    def __init__(self, plan: ImportPlan) -> None:
        super().__init__(self.text)
        self.plan = plan


class ImportUnknownNames(CompetitionError):
    """Names that are neither entrants nor club players, and no one said who they are."""


class ImportWouldReplace(CompetitionError):
    """Results that already exist would change, and replacing was not allowed."""


@transaction.atomic
def results_import_apply(
    *,
    competition: Competition,
    data: bytes,
    decisions: ImportDecisions,
    by: AbstractBaseUser | None,
    expected_fingerprint: str | None = None,
    now: datetime | None = None,
) -> ImportSummary:
    """Import a results file into a competition: all of it, or nothing.

    Plans again while holding the club's lock (the lock order of every write: club, round,
    games, and the competition's `changed_at` last), so what is written is what the plan
    (and, with `expected_fingerprint`, the preview the user confirmed) says.
    """
    if refusal := record_refusal(by, competition.club, event_id=competition.event_id):
        raise CompetitionError(refusal.message)
    club_lock(competition.club_id)
    plan = results_import_plan(
        competition=competition, rows=results_import_read(data=data), decisions=decisions
    )
    if plan.errors:
        raise _refuse(list(plan.errors))
    if plan.undecided:
        raise _refuse([_unsettled(question) for question in plan.undecided], ImportUnknownNames)
    replaced = plan.of(Action.REPLACE)
    if replaced and not decisions.replace:
        raise _refuse([_replacement(game) for game in replaced], ImportWouldReplace)
    if expected_fingerprint is not None and expected_fingerprint != plan.fingerprint:
        raise ImportPlanChanged(plan)
    try:
        _write(competition, plan, by=by, now=now or timezone.now())
    except IntegrityError:
        raise CompetitionError(
            _("Someone else changed this competition at the same moment. Try again.")
        ) from None
    return ImportSummary(
        rounds=len({game.round for game in plan.games if game.action != Action.SAME}),
        games=plan.changes,
        replaced=len(replaced),
        new_players=len(plan.new_players),
        published=plan.rounds_published,
    )


def _unsettled(question: NameQuestion) -> Any:
    values = {"line": question.lines[0], "name": question.name, "options": question.suggestions}
    if question.exact > 1:
        return _("Line %(line)s: the club has more than one player called “%(name)s”.") % values
    if question.options:
        return _("Line %(line)s: “%(name)s” is not an entrant; did you mean %(options)s?") % values
    return _("Line %(line)s: “%(name)s” is not a player of the club.") % values


def _replacement(game: PlannedGame) -> Any:
    return _("Line %(line)s: round %(round)s, %(game)s: %(before)s → %(after)s.") % {
        "line": game.line,
        "round": game.round,
        "game": " – ".join(filter(None, game.names)),
        "before": describe_result(game.before, game.names),
        "after": describe_result(game.result, game.names),
    }


def _write(
    competition: Competition, plan: ImportPlan, *, by: AbstractBaseUser | None, now: datetime
) -> None:
    # The games to change, locked first and in id order: a board save holds its game and
    # then touches the round and the competition, so locking them one by one between
    # those touches could wait for a board save that waits for the import.
    games = games_lock(
        game.game_id for game in plan.games if game.game_id and game.action != Action.SAME
    )
    keys = {key for game in plan.games for key in game.keys if key is not None}
    chosen = {key: choice for key, choice in plan.choices.items() if isinstance(choice, int)}
    players = _players_for(competition, plan, keys, chosen)
    first_round: dict[int, int] = {}
    for planned in sorted(plan.games, key=lambda game: game.round):
        for key in planned.keys:
            if key is not None:
                first_round.setdefault(players[key].pk, planned.round)
    entrants = set(competition.entrants.values_list("player_id", flat=True))
    added = [
        Entrant(competition=competition, player_id=player_id, joined_round=number)
        for player_id, number in first_round.items()
        if player_id not in entrants
    ]
    Entrant.objects.bulk_create(added)
    numbers = {game.round for game in plan.games}
    rounds = {r.number: r for r in competition.rounds.filter(number__in=numbers)}
    for number in plan.rounds_created:
        rounds[number] = round_import(
            competition=competition, number=number, by=by, reason_code=HistoryReason.CSV_IMPORT
        )
    rules = game_rules_for(competition)
    for planned in plan.games:
        if planned.action == Action.SAME:
            continue
        seated = tuple(players[key].pk for key in planned.keys if key)
        try:
            if planned.action == Action.ADD:
                spec = PairingSpec(seated, planned.table, rules=rules)
                (game,) = games_create(round_id=rounds[planned.round].pk, pairings=[spec])
                expected = game.version
            else:
                # A game found in the round: its id and version were read with it.
                assert planned.game_id is not None and planned.version is not None
                game, expected = games[planned.game_id], planned.version
            if planned.result is not None:
                game_record_result(
                    game=game,
                    result=planned.result,
                    by=by,
                    reason_code=HistoryReason.CSV_IMPORT,
                    expected_version=expected,
                    now=now,
                )
        except ResultError as error:
            raise CompetitionError(
                _("Line %(line)s: %(reason)s") % {"line": planned.line, "reason": error.message}
            ) from None
    for number in sorted(numbers):
        round_update_status(round=rounds[number], by=by)
    # Each result has its own entry (games.services); this one says what else came with it.
    names = {player.pk: player.name for player in players.values()}
    imported = {
        "players_created": list(plan.new_players),
        "entrants_added": sorted(names[entrant.player_id] for entrant in added),
        "rounds_created": sorted(plan.rounds_created),
        "games": plan.changes,
    }
    if any(imported.values()):  # a file imported again changes nothing, and says nothing
        history_record(
            club_id=competition.club_id,
            by=by,
            action=HistoryAction.RESULTS_IMPORT,
            object_type="competition",
            object_id=competition.pk,
            label=competition.name,
            competition_id=competition.pk,
            after=imported,
            at=now,
        )
    competition_touched(competition_id=competition.pk)


def _players_for(
    competition: Competition, plan: ImportPlan, keys: set[str], chosen: dict[str, int]
) -> dict[str, Player]:
    """The players of the plan's names: entrants, chosen club players, new players."""
    entrants: dict[str, list[Player]] = {}
    for entrant in competition.entrants.select_related("player"):
        entrants.setdefault(name_key(entrant.player.name), []).append(entrant.player)
    existing = Player.objects.in_bulk(chosen.values())
    players: dict[str, Player] = {}
    for key in keys:
        if key in chosen:
            players[key] = existing[chosen[key]]
        elif key not in plan.choices:
            (players[key],) = entrants[key]
        else:  # decided: a new player
            name = next(q.name for q in plan.questions if q.key == key)
            players[key] = Player.objects.create(name=name)
            Membership.objects.create(club=competition.club, player=players[key])
    return players
