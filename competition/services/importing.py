"""Importing results from a spreadsheet (CSV), all or nothing.

Clubs keep their history in spreadsheets. One row per game (a mirrored second row for the
same game is accepted when it agrees). Players are matched by name within the club and
created when new. Any bad row refuses the whole file with its line number and reason.
"""

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from competition.models import Competition, Entrant, Round
from competition.rulesets import ruleset_for
from competition.services import CompetitionError, club_lock
from competition.services.entrants import player_get_or_create_in_club
from games.models import Game, Outcome
from games.services import (
    PairingSpec,
    ResultError,
    ResultInput,
    ResultKind,
    game_record_result,
    games_create,
)

COLUMNS = ("round", "table", "player", "opponent", "score", "opponent_score", "outcome")

# The file speaks from the row's player's point of view; the game's first player is `player`.
OUTCOMES = {
    "normal": ResultKind.NORMAL,
    "flag:player": ResultKind.FLAG_A,
    "flag:opponent": ResultKind.FLAG_B,
    "forfeit:player": ResultKind.FORFEIT_A,
    "forfeit:opponent": ResultKind.FORFEIT_B,
    "forfeit:both": ResultKind.FORFEIT_BOTH,
    "annulled": ResultKind.ANNULLED,
    "bye": "bye",
}
MIRRORED = {
    ResultKind.FLAG_A: ResultKind.FLAG_B,
    ResultKind.FLAG_B: ResultKind.FLAG_A,
    ResultKind.FORFEIT_A: ResultKind.FORFEIT_B,
    ResultKind.FORFEIT_B: ResultKind.FORFEIT_A,
}


@dataclass(frozen=True)
class ImportRow:
    line: int
    round: int
    table: int | None
    player: str
    opponent: str
    kind: str
    score: int | None
    opponent_score: int | None


@dataclass(frozen=True)
class ImportSummary:
    rounds: int
    games: int
    new_players: int


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise CompetitionError(_("The file is not a text (CSV) file."))


def _int(value: str, line: int, column: str, *, required: bool) -> int | None:
    value = value.strip()
    if not value:
        if required:
            raise CompetitionError(
                _("Line %(line)s: “%(column)s” is empty.") % {"line": line, "column": column}
            )
        return None
    try:
        return int(value)
    except ValueError:
        raise CompetitionError(
            _("Line %(line)s: “%(column)s” must be a whole number, not “%(value)s”.")
            % {"line": line, "column": column, "value": value}
        ) from None


def parse_rows(text: str) -> list[ImportRow]:
    """Read and check every row; raises with all errors, each with its line number."""
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    header = [name.strip().lower() for name in reader.fieldnames or []]
    missing = [name for name in COLUMNS if name not in header]
    if missing:
        raise CompetitionError(
            _("Line 1: the columns %(missing)s are missing.") % {"missing": ", ".join(missing)}
        )
    reader.fieldnames = header
    rows, errors = [], []
    for raw in reader:
        line = reader.line_num
        values = {key: (value or "").strip() for key, value in raw.items() if key}
        if not any(values.values()):
            continue
        try:
            rows.append(_parse_row(values, line))
        except CompetitionError as error:
            errors.append(error.message)
    if errors:
        raise CompetitionError(errors[0], errors=errors)
    if not rows:
        raise CompetitionError(_("The file holds no results."))
    return rows


def _parse_row(values: dict[str, str], line: int) -> ImportRow:
    round_number = _int(values["round"], line, "round", required=True)
    if round_number < 1:
        raise CompetitionError(_("Line %(line)s: the round must be 1 or more.") % {"line": line})
    outcome = values["outcome"].lower() or "normal"
    if outcome not in OUTCOMES:
        raise CompetitionError(
            _("Line %(line)s: unknown outcome “%(outcome)s”; use one of %(known)s.")
            % {"line": line, "outcome": values["outcome"], "known": ", ".join(OUTCOMES)}
        )
    if not values["player"]:
        raise CompetitionError(_("Line %(line)s: the player is missing.") % {"line": line})
    kind = OUTCOMES[outcome]
    if kind == "bye":
        if values["opponent"]:
            raise CompetitionError(_("Line %(line)s: a bye has no opponent.") % {"line": line})
    elif not values["opponent"]:
        raise CompetitionError(
            _("Line %(line)s: the opponent is missing (only a bye has none).") % {"line": line}
        )
    if values["player"].casefold() == values["opponent"].casefold():
        raise CompetitionError(
            _("Line %(line)s: a player cannot play against themselves.") % {"line": line}
        )
    needs_scores = kind in {ResultKind.NORMAL, ResultKind.FLAG_A, ResultKind.FLAG_B}
    score = _int(values["score"], line, "score", required=needs_scores)
    opponent_score = _int(values["opponent_score"], line, "opponent_score", required=needs_scores)
    return ImportRow(
        line=line,
        round=round_number,
        table=_int(values["table"], line, "table", required=False),
        player=" ".join(values["player"].split()),
        opponent=" ".join(values["opponent"].split()),
        kind=kind,
        score=score if needs_scores else None,
        opponent_score=opponent_score if needs_scores else None,
    )


def _same_game(first: ImportRow, second: ImportRow) -> bool:
    """Whether `second` is the same game told from the opponent's side."""
    return (
        first.kind != "bye"
        and first.player.casefold() == second.opponent.casefold()
        and first.opponent.casefold() == second.player.casefold()
        and MIRRORED.get(second.kind, second.kind) == first.kind
        and (second.score, second.opponent_score) == (first.opponent_score, first.score)
    )


@transaction.atomic
def results_import(
    *, competition: Competition, data: bytes, by: AbstractBaseUser | None
) -> ImportSummary:
    """Import a results file into a competition; all of it, or nothing."""
    rows = parse_rows(_decode(data))
    club_lock(competition.club_id)  # one import or entry at a time: no player made twice
    players: dict[str, Player] = {}
    new_players = 0
    games_by_round: dict[int, list[ImportRow]] = {}
    seen: dict[tuple[int, str], ImportRow] = {}
    for row in rows:
        names = [row.player] + ([row.opponent] if row.opponent else [])
        mirror = seen.get((row.round, row.player.casefold()))
        if mirror is not None and _same_game(mirror, row):
            continue
        for name in names:
            earlier = seen.get((row.round, name.casefold()))
            if earlier is not None:
                raise CompetitionError(
                    _("Line %(line)s: %(name)s already plays in round %(round)s (line %(other)s).")
                    % {"line": row.line, "name": name, "round": row.round, "other": earlier.line}
                )
            seen[row.round, name.casefold()] = row
            if name.casefold() not in players:
                try:
                    player, created = player_get_or_create_in_club(club=competition.club, name=name)
                except CompetitionError as error:
                    raise CompetitionError(
                        _("Line %(line)s: %(reason)s") % {"line": row.line, "reason": error.message}
                    ) from None
                players[name.casefold()] = player
                new_players += created
        games_by_round.setdefault(row.round, []).append(row)

    first_round: dict[int, int] = {}
    for number in sorted(games_by_round):
        for row in games_by_round[number]:
            for name in (row.player, row.opponent):
                if name:
                    first_round.setdefault(players[name.casefold()].pk, number)
    entrants = set(
        Entrant.objects.filter(competition=competition).values_list("player_id", flat=True)
    )
    Entrant.objects.bulk_create(
        Entrant(competition=competition, player_id=player_id, joined_round=number)
        for player_id, number in first_round.items()
        if player_id not in entrants
    )

    now = timezone.now()
    count = 0
    for number, round_rows in sorted(games_by_round.items()):
        round_obj, _created = Round.objects.get_or_create(competition=competition, number=number)
        existing = {
            frozenset((game.player_a_id, game.player_b_id)): game
            for game in Game.objects.filter(round=round_obj)
        }
        for row in round_rows:
            count += _import_game(row, round_obj, players, existing, by=by, now=now)
        if not round_obj.games.filter(outcome=Outcome.PENDING).exists():
            round_obj.status = Round.Status.FINISHED
            round_obj.save(update_fields=["status"])
    return ImportSummary(rounds=len(games_by_round), games=count, new_players=new_players)


def _import_game(row: ImportRow, round_obj: Round, players, existing, *, by, now) -> int:
    player = players[row.player.casefold()]
    opponent = players[row.opponent.casefold()] if row.opponent else None
    key = frozenset((player.pk, opponent.pk if opponent else None))
    game: Any = existing.get(key)
    try:
        if game is None:
            with transaction.atomic():
                (game,) = games_create(
                    round_id=round_obj.pk,
                    pairings=[
                        PairingSpec(
                            player_a=player.pk,
                            player_b=opponent.pk if opponent else None,
                            table=row.table,
                            rules=ruleset_for(round_obj.competition).to_dict(),
                        )
                    ],
                )
        if row.kind == "bye":
            return 1
        result = ResultInput(kind=row.kind, score_a=row.score, score_b=row.opponent_score)
        if game.player_a_id != player.pk:
            result = ResultInput(
                kind=MIRRORED.get(row.kind, row.kind),
                score_a=row.opponent_score,
                score_b=row.score,
            )
        game_record_result(
            game=game, result=result, by=by, now=now, reason=str(_("imported from CSV"))
        )
    except IntegrityError:
        raise CompetitionError(
            _("Line %(line)s: a player or table appears twice in round %(round)s.")
            % {"line": row.line, "round": row.round}
        ) from None
    except ResultError as error:
        raise CompetitionError(
            _("Line %(line)s: %(reason)s") % {"line": row.line, "reason": error.message}
        ) from None
    return 1
