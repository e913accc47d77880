"""Moving a tournament between Bordpunt and TSH: export a competition as a ``.t`` file, and
create a competition from one (players, rounds, pairings and results, all or nothing).

The file format and its mapping live in the pure module ``interchange.core.tsh``; this module
turns ORM rows into its records and back. docs/tsh.md describes what carries over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, HistoryReason, history_record
from clubs.models import Club, Player
from competition.core import standings
from competition.models import Competition, Entrant, Round
from competition.ratings import club_ratings
from competition.rulesets import game_rules_for
from competition.services import CompetitionError
from competition.services.competitions import competition_create
from competition.services.entrants import player_get_or_create_in_club
from competition.services.rounds import round_import, round_update_status
from games.models import Game, Outcome
from games.policy import record_refusal
from games.services import (
    SEAT_LETTERS,
    PairingSpec,
    ResultError,
    ResultInput,
    ResultKind,
    game_record_result,
    games_create,
)
from interchange.core import tsh

#: The rule sets a TSH file can be imported under (a club variant is set afterwards).
IMPORT_RULES = (
    Competition.Rules.GOUDS_8,
    Competition.Rules.STANDARD,
    Competition.Rules.SBNL,
)
MAX_BYTES = 1024 * 1024  # a .t file of 500 players and 30 rounds is about 100 kB

MESSAGES = {
    "no_rating": _("Expected NAME RATING OPPONENTS; SCORES."),
    "bad_number": _("“%(value)s” is not a whole number."),
    "no_players": _("The file holds no players."),
    "bad_opponent": _("round %(round)s: there is no player %(opponent)s."),
    "self": _("round %(round)s: a player cannot play against themselves."),
    "too_many_scores": _("more scores (%(scores)s) than rounds (%(rounds)s)."),
    "not_mirrored": _("round %(round)s: %(opponent)s does not have %(name)s as opponent."),
    "half_played": _("round %(round)s: a score on one side of the game only."),
    "bad_token": _("round %(round)s: cannot read “%(token)s” in the bordpunt field."),
    "duplicate_name": _("%(name)s is listed twice (also on line %(other)s)."),
    "pending_not_last": _(
        "%(name)s: round %(round)s has no result but a later round has; TSH needs the "
        "results in round order. Enter the missing result first."
    ),
    "no_score": _("round %(round)s: a finished game without a score."),
    "too_many_rounds": _("%(rounds)s rounds: a tournament has at most %(limit)s."),
    "too_many_players": _("%(players)s players: a division has at most %(limit)s."),
}


def tsh_error_message(error: tsh.TshError) -> str:
    """The error in the reader's language, with its line when it has one."""
    reason = MESSAGES[error.code] % error.params
    if error.line:
        return _("Line %(line)s: %(reason)s") % {"line": error.line, "reason": reason}
    return str(reason)


# ------------------------------------------------------------------- export


def tsh_export(*, competition: Competition) -> str:
    """The competition as a TSH ``.t`` file: every entrant, every published round.

    A result that does not count for the standings (`Game.objects.with_counts`: one that
    awaits confirmation when only confirmed results count) is written as a game paired and
    not yet played, so that TSH counts what the standings count."""
    entrants = list(
        Entrant.objects.filter(competition=competition)
        .select_related("player")
        .order_by("seed", "player__name", "pk")
    )
    games = list(
        Game.objects.published()
        .filter(round__competition=competition)
        .with_counts()
        .with_seats()
        .select_related("round")
        .order_by("round__number", "table", "pk")
    )
    if any(len(game.seat_list) > 2 for game in games):
        raise CompetitionError(
            _(
                "TSH knows only games of two players; this competition has tables of three "
                "or four. Export its results as CSV instead."
            )
        )
    index = {entrant.player_id: i for i, entrant in enumerate(entrants)}
    names = [entrant.player.name for entrant in entrants]
    for game in games:  # a player with games but no entry (should not happen) still counts
        for player in game.players:
            if player.pk not in index:
                index[player.pk] = len(names)
                names.append(player.name)
    records = tuple(
        tsh.TournamentGame(
            round=game.round.number,
            a=index[game.players[0].pk],
            b=index[game.players[1].pk] if len(game.players) == 2 else None,
            starter=SEAT_LETTERS[game.starter] if game.starter is not None else "",
            **(_counted_result(game) if game.counts else {}),  # else: paired, no result yet
        )
        for game in games
    )
    rounds = max((game.round for game in records), default=0)
    # The club's rating now (competition/ratings.py), whole and never below 0 as TSH reads it.
    club_rating = club_ratings(competition.club)
    players = {entrant.player_id: entrant.player for entrant in entrants}
    by_index = sorted(index.items(), key=lambda item: item[1])
    rated = tuple(
        max(0, round(club_rating.rating_of(players.get(pk) or Player.objects.get(pk=pk)).rating))
        for pk, _i in by_index
    )
    tournament = tsh.Tournament(tuple(names), rounds, records, ratings=rated)
    try:
        return tsh.write(tsh.from_tournament(tournament))
    except tsh.TshError as error:
        raise CompetitionError(tsh_error_message(error)) from None


def _counted_result(game: Game) -> dict[str, Any]:
    """A pair's result as the TSH core names it (winner "a", "b", "draw" or "none")."""
    scores = game.scores
    places = tuple(seat.place for seat in game.seat_list)
    return {
        "outcome": game.outcome,
        "winner": standings.pair_winner(game.outcome, places),
        "score_a": scores[0],
        "score_b": scores[1] if len(scores) == 2 else None,
    }


# ------------------------------------------------------------------- import


@dataclass(frozen=True)
class TshImportSummary:
    competition: Competition
    players: int
    new_players: int
    rounds: int
    games: int
    #: (player name, round) of TSH forfeit losses without an opponent: not imported.
    unmatched_forfeits: tuple[tuple[str, int], ...] = ()


def _decode(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise CompetitionError(
            _("The file is too large (at most %(size)s kB).") % {"size": MAX_BYTES // 1024}
        )
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise CompetitionError(_("The file is not a text (.t) file."))


def _check_names(players: list[tsh.TshPlayer]) -> None:
    limit = cast(int, Player._meta.get_field("name").max_length)  # a CharField's
    for p in players:
        if any(ord(char) < 32 or ord(char) == 127 for char in p.name):
            raise CompetitionError(
                _("Line %(line)s: the name contains a control character.") % {"line": p.line}
            )
        if len(p.name) > limit:
            raise CompetitionError(
                _("Line %(line)s: a name has at most %(limit)s characters.")
                % {"line": p.line, "limit": limit}
            )


def _result(game: tsh.TournamentGame) -> ResultInput | None:
    """How Bordpunt records the game's result (None: no result yet, or a bye)."""
    if game.outcome == Outcome.NORMAL:
        return ResultInput.of_pair(ResultKind.NORMAL, game.score_a, game.score_b)
    if game.outcome == Outcome.FLAG_FALL:
        kind = ResultKind.FLAG_B if game.winner == "a" else ResultKind.FLAG_A
        return ResultInput.of_pair(kind, game.score_a, game.score_b)
    if game.outcome == Outcome.FORFEIT:
        kind = {
            "a": ResultKind.FORFEIT_B,
            "b": ResultKind.FORFEIT_A,
            "none": ResultKind.FORFEIT_BOTH,
        }[game.winner]
        return ResultInput.of_pair(kind)
    if game.outcome == Outcome.ANNULLED:
        return ResultInput.of_pair(ResultKind.ANNULLED)
    return None


@transaction.atomic
def tsh_import(
    *,
    club: Club,
    data: bytes,
    name: str,
    slug: str = "",
    rules: str = Competition.Rules.GOUDS_8,
    by: AbstractBaseUser | None,
) -> TshImportSummary:
    """Create a tournament from a TSH ``.t`` file: all of it, or nothing; for the club's
    secretaries (or a command: `games.policy`)."""
    if refusal := record_refusal(by, club):
        raise CompetitionError(refusal.message)
    try:
        players = tsh.parse(_decode(data))
        tournament = tsh.to_tournament(players)
    except tsh.TshError as error:
        raise CompetitionError(tsh_error_message(error)) from None
    _check_names(players)
    if rules not in IMPORT_RULES:
        raise CompetitionError(
            _("Choose the rules: %(choices)s.") % {"choices": ", ".join(IMPORT_RULES)}
        )
    competition = _competition_create(
        club=club,
        name=name,
        slug=slug,
        rules=rules,
        rounds=tournament.rounds,
        assigned=any(game.starter for game in tournament.games),
        by=by,
    )

    player_ids, new_players = [], 0
    for p in players:
        player, created = player_get_or_create_in_club(club=club, name=p.name)
        player_ids.append(player.pk)
        new_players += created
    if len(set(player_ids)) != len(player_ids):
        raise CompetitionError(_("Two lines of the file name the same club member."))
    Entrant.objects.bulk_create(
        Entrant(competition=competition, player_id=player_id, seed=seed)
        for seed, player_id in enumerate(player_ids, 1)
    )

    by_round: dict[int, list[tsh.TournamentGame]] = {}
    for game in tournament.games:
        by_round.setdefault(game.round, []).append(game)
    ruleset = game_rules_for(competition)
    now = timezone.now()
    count = 0
    for number in range(1, tournament.rounds + 1):
        games = by_round.get(number, [])
        round_obj = round_import(
            competition=competition, number=number, by=by, reason_code=HistoryReason.TSH_IMPORT
        )
        for game in games:
            count += _game_import(game, round_obj, player_ids, players, ruleset, by=by, now=now)
        round_update_status(round=round_obj, by=by)
    unmatched = tuple((players[i].name, r) for i, r in tournament.unmatched_forfeits)
    # Each result has its own entry (games.services); this one records the competition.
    history_record(
        club_id=club.pk,
        by=by,
        action=HistoryAction.TSH_IMPORT,
        object_type="competition",
        object_id=competition.pk,
        label=competition.name,
        competition_id=competition.pk,
        after={
            "name": competition.name,
            "players": [p.name for p in players],
            "rounds": tournament.rounds,
            "games": count,
        },
        at=now,
    )
    return TshImportSummary(
        competition, len(players), new_players, tournament.rounds, count, unmatched
    )


def _competition_create(
    *, club: Club, name: str, slug: str, rules: str, rounds: int, assigned: bool, by: Any
) -> Competition:
    name = " ".join(name.split())
    slug = slugify(slug or name)[:50]
    if Competition.objects.filter(club=club, slug=slug).exists():
        raise CompetitionError(
            _("The club already has a competition with the short name “%(slug)s”.") % {"slug": slug}
        )
    # Through the settings service, so the history has the competition's creation too.
    return competition_create(
        club=club,
        settings={
            "name": name,
            "slug": slug,
            "kind": Competition.Kind.TOURNAMENT,
            "rules": rules,
            "number_of_rounds": rounds or None,
            "starters": (
                Competition.Starters.ASSIGNED if assigned else Competition.Starters.BY_LOT
            ),
        },
        by=by,
    )


def _game_import(
    game: tsh.TournamentGame,
    round_obj: Round,
    player_ids: list[int],
    players: list[tsh.TshPlayer],
    ruleset: dict[str, Any],
    *,
    by: AbstractBaseUser | None,
    now: Any,
) -> int:
    spec = PairingSpec(
        players=(player_ids[game.a],)
        if game.b is None
        else (player_ids[game.a], player_ids[game.b]),
        starter=SEAT_LETTERS.index(game.starter) if game.starter else None,
        rules=ruleset,
    )
    where = {
        "round": game.round,
        "line": players[game.a].line,
    }
    try:
        with transaction.atomic():
            (created,) = games_create(round_id=round_obj.pk, pairings=[spec])
        result = _result(game)
        if result is not None:
            game_record_result(
                game=created,
                result=result,
                by=by,
                now=now,
                reason_code=HistoryReason.TSH_IMPORT,
            )
    except IntegrityError:
        raise CompetitionError(
            _("Line %(line)s: a player appears twice in round %(round)s.") % where
        ) from None
    except ResultError as error:
        raise CompetitionError(
            _("Line %(line)s: round %(round)s: %(reason)s") % {**where, "reason": error.message}
        ) from None
    return 1
