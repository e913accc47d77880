"""Demo data: a club with 24 players, a running Gouds 8 club competition (its next round a
draft), a finished standard-rules tournament, Thursday foursomes (tables of 3 and 4, absent
players), a finished duplicate evening and one under way; a second club, the federation
NTSV with a season and a played interclub (a duplicate division, players of both clubs),
and the club's own open duplicate event, all made through the same services the pages
use. Every kind of result is in it: scores, moves, walk-overs, flag falls, annulled games,
byes; the browser crawl (tests/e2e/test_crawl.py) opens it all."""

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club, Membership, Player
from clubs.services import club_save, membership_save, player_save
from competition.models import Competition, Round
from competition.selectors import (
    entrants_active_in,
)
from competition.services.competitions import competition_create
from competition.services.entrants import entrant_add
from competition.services.rounds import (
    round_create,
    round_record_results,
    round_set_attendance,
)
from duplicate.models import DuplicateCompetition
from duplicate.replay import master_game
from duplicate.services.competitions import duplicate_create
from duplicate.services.evenings import evening_create
from duplicate.services.participants import participant_add
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from events.divisions import Division, division_kind
from events.models import Event, Season
from events.services import entry_create, event_create
from games.management.commands.make_demo_games import DEMO_DIR
from games.models import Outcome
from games.moves import moves_import_gcg
from games.services import ResultEntry, ResultInput, ResultKind
from pairing.services import round_pair

PLAYER_NAMES = [
    "Anke de Vries", "Bram Jansen", "Carla Bakker", "Dirk Visser", "Els Smit",
    "Frank Meijer", "Greet de Boer", "Hans Mulder", "Ineke de Groot", "Jan Bos",
    "Karin Vos", "Leo Peters", "Marja Hendriks", "Nico van Leeuwen", "Oda Dekker",
    "Piet Brouwer", "Quirine de Wit", "Rob Dijkstra", "Sanne Smits", "Theo de Graaf",
    "Ursula van der Meer", "Vincent Kok", "Wilma Jacobs", "Youssef el Amrani",
]  # fmt: skip

#: The members of the second club, who play the federation's interclub and the open event.
LEIDEN_NAMES = [
    "Aart Verbeek", "Bea Kuipers", "Cees Willems", "Dina Hoekstra",
    "Evert Prins", "Fenna Post", "Gijs Kramer", "Hilde Schouten",
]  # fmt: skip

DEMO_PASSWORD = "bordpunt-demo"


@dataclass(frozen=True)
class PairedPlan:
    """A paired competition of the demo club, entered and played round by round: every
    round paired and its results in (each table's by `Command._play`), the last round
    published with only `last_share` of its tables in."""

    settings: dict[str, Any]
    #: Who enters: these of the club's players (PLAYER_NAMES), in this order.
    entrants: slice
    rounds: int
    #: The first round's date; a round a week later each (`weekly`), or all on one day.
    first: date
    low: int
    high: int
    last_share: float
    weekly: bool = True
    #: Entered by rating, strongest first, with their seed numbers.
    seeded: bool = False
    #: Each entrant present by lot (88%) every round; else all present, but for
    #: `absent_last` (a player's number in PLAYER_NAMES) on the last evening.
    present_by_lot: bool = False
    absent_last: int | None = None
    #: The last round's first tables entered move by move (games/demo/*.gcg).
    moves_last: bool = False
    #: One round more, paired and not published: a draft, the secretaries' alone.
    draft: bool = False

    def date_of(self, number: int) -> date:
        return self.first + timedelta(weeks=number - 1 if self.weekly else 0)


@dataclass(frozen=True)
class EventPlan:
    """An open event with one duplicate division, organised by the club of `organiser`
    (a short name), and who entered it: each club's members (`entries`, by short name and
    a slice of them) playing for their club, and `guests`, new players without a club."""

    organiser: str
    settings: dict[str, Any]
    division: dict[str, Any]
    entries: tuple[tuple[str, slice], ...]
    guests: tuple[str, ...] = ()
    #: One of the federation's season's events (the season the demo makes).
    in_season: bool = False
    #: Its first evening played to its end by everyone entered.
    played: bool = False


#: The events, both with their entries closed: entering is shown on a fresh event.
EVENTS = [
    # Twelve players, six of each club: enough for a ranking, cheap to seed.
    EventPlan(
        organiser="ntsv",
        settings=dict(
            name="Interclub Gouda 2026",
            slug="interclub-gouda-2026",
            kind=Event.Kind.INTERCLUB,
            date=date(2026, 11, 14),
            guests_allowed=False,
            entry_closes_at=datetime(2026, 11, 7, 17, 0, tzinfo=UTC),
        ),
        division=dict(
            name="Interclub Gouda 2026",
            slug="interclub-gouda-2026",
            rules=DuplicateCompetition.Rules.STANDARD,
            start_date=date(2026, 11, 14),
        ),
        entries=(("gouda", slice(2, 8)), ("leiden", slice(6))),
        in_season=True,
        played=True,
    ),
    EventPlan(
        organiser="gouda",
        settings=dict(
            name="Gouds Duplicate Open 2027",
            slug="duplicate-open-2027",
            kind=Event.Kind.OPEN,
            date=date(2027, 2, 13),
            entry_closes_at=datetime(2026, 12, 1, 17, 0, tzinfo=UTC),
        ),
        division=dict(
            name="Duplicate Open 2027",
            slug="duplicate-open-2027",
            rules=DuplicateCompetition.Rules.STANDARD,
            start_date=date(2027, 2, 13),
        ),
        entries=(("gouda", slice(4)), ("leiden", slice(3))),
        guests=("Gerrit Gast",),
    ),
]

PAIRED = [
    # Rounds 1-6 finish with their last result, round 7 is published with its first.
    PairedPlan(
        settings=dict(
            name="Clubcompetitie 2026–2027",
            slug="competitie-2026",
            kind=Competition.Kind.CLUB,
            rules=Competition.Rules.GOUDS_8,
            start_date=date(2026, 9, 1),
            ranking=Competition.Ranking.TOTALS,
            tiebreaks=["spread", "wins", "opponents_match_points"],
        ),
        entrants=slice(None),
        rounds=7,
        first=date(2026, 9, 1),
        low=110,
        high=330,
        last_share=0.3,
        present_by_lot=True,
        moves_last=True,
        draft=True,
    ),
    PairedPlan(
        settings=dict(
            name="Gouds Open 2026",
            slug="gouds-open-2026",
            kind=Competition.Kind.TOURNAMENT,
            rules=Competition.Rules.STANDARD,
            start_date=date(2026, 6, 13),
            number_of_rounds=5,
            starters=Competition.Starters.ASSIGNED,
            tiebreaks=["spread", "sonneborn_berger"],
        ),
        entrants=slice(12),
        rounds=5,
        first=date(2026, 6, 13),
        weekly=False,
        low=280,
        high=520,
        last_share=1.0,
        seeded=True,
    ),
    # Thursdays in tables of 3 and 4: rounds 1-3 finish; round 4 is published with half of
    # its tables in, and one is absent that evening: its tables are of 4 and of 3.
    PairedPlan(
        settings=dict(
            name="Donderdag in viertallen",
            slug="viertallen-2026",
            kind=Competition.Kind.CLUB,
            rules=Competition.Rules.STANDARD,
            start_date=date(2026, 9, 1),
            table_size="fours",
            tiebreaks=["relative_score", "wins"],
        ),
        entrants=slice(14),
        rounds=4,
        first=date(2026, 9, 3),
        low=150,
        high=420,
        last_share=0.5,
        absent_last=5,
    ),
]


class Command(BaseCommand):
    help = "Create demo data: a club, players, a Gouds 8 competition and a tournament."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing when a club already exists."
        )
        parser.add_argument("--seed", type=int, default=8)
        parser.add_argument(
            "--force",
            action="store_true",
            help="Also with debug off: demo logins with a published password on a real site.",
        )

    def handle(self, *args, if_empty: bool, seed: int, force: bool = False, **options) -> None:
        self.verbosity = options.get("verbosity", 1)
        if if_empty and Club.objects.exists():
            if self.verbosity:
                self.stdout.write("Demo data already present.")
            self._print_logins()
            return
        if not settings.DEBUG and not force:
            raise CommandError(
                "Debug is off: this looks like a real site, and the demo creates logins with "
                f"the published password {DEMO_PASSWORD!r}. Use --force to seed anyway."
            )
        with transaction.atomic():
            self._seed(random.Random(seed))
        self._print_logins()

    def _seed(self, rng: random.Random) -> None:
        user_model = get_user_model()
        club = club_save(
            Club(name="Scrabbleclub De Goudse Letters", slug="gouda", city="Gouda"), by=None
        )
        players = [
            player_save(Player(name=name, rating=rng.randint(900, 1700)), by=None)
            for name in PLAYER_NAMES
        ]
        players[0].user = user_model.objects.create_user("secretaris", password=DEMO_PASSWORD)
        players[1].user = user_model.objects.create_user("speler", password=DEMO_PASSWORD)
        for player in players[:2]:
            player_save(player, by=None)
        for number, player in enumerate(players):
            role = Membership.Role.SECRETARY if number == 0 else Membership.Role.MEMBER
            membership_save(Membership(club=club, player=player, role=role), by=None)
        if not user_model.objects.filter(username="admin").exists():
            user_model.objects.create_superuser("admin", password=DEMO_PASSWORD)

        for plan in PAIRED:
            self._play_paired(club, plan, players, rng)
        start = date(2026, 9, 1)
        duplicate = duplicate_create(
            club=club,
            settings=dict(
                name="Duplicate-avonden",
                slug="duplicate-2026",
                rules=DuplicateCompetition.Rules.STANDARD,
                start_date=start,
            ),
            by=None,
        )
        for player in players[:16]:
            participant_add(competition=duplicate, player=player, by=None)
        self._play_duplicate(duplicate, 1, players[:8], rng, turns=None)
        self._play_duplicate(duplicate, 2, players[:16], rng, turns=6)
        self._seed_events(club, players, rng)

    def _seed_events(self, club: Club, players: list[Player], rng: random.Random) -> None:
        """A second club, the federation NTSV with its season and a played interclub (a
        duplicate division, players of both clubs), and the club's own open duplicate
        event. Both events' entries are closed: entering is shown on a fresh event."""
        club.federation_code = "GL"
        club_save(club, by=None)
        leiden = club_save(
            Club(name="Scrabbleclub Het Leidse Woord", slug="leiden", city="Leiden"), by=None
        )
        leiden.federation_code = "LW"
        club_save(leiden, by=None)
        guests = [
            player_save(Player(name=name, rating=rng.randint(900, 1600)), by=None)
            for name in LEIDEN_NAMES
        ]
        for player in guests:
            membership_save(Membership(club=leiden, player=player), by=None)
        ntsv = Club(name="NTSV", slug="ntsv", city="Nederland")
        ntsv.is_federation = True  # not editable on a form: the operator's decision
        club_save(ntsv, by=None)
        # The season's settings are the ranking's pages' (ranking/); the demo sets them.
        season = Season.objects.create(
            federation=ntsv,
            name="Seizoen 2026–2027",
            slug="2026-2027",
            start=date(2026, 9, 1),
            end=date(2027, 8, 31),
            gap_value=Decimal("20"),
        )
        members = {club.slug: players, leiden.slug: guests}
        clubs = {club.slug: club, leiden.slug: leiden, ntsv.slug: ntsv}
        for plan in EVENTS:
            settings = {**plan.settings, **({"season": season} if plan.in_season else {})}
            event = event_create(organiser=clubs[plan.organiser], settings=settings, by=None)
            division = duplicate_create(
                club=clubs[plan.organiser],
                settings=plan.division,
                by=None,
                event=event,
            )
            entered: list[tuple[Player, Club | None]] = [
                (player, clubs[slug])
                for slug, which in plan.entries
                for player in members[slug][which]
            ]
            entered += [(player_save(Player(name=name), by=None), None) for name in plan.guests]
            for player, plays_for in entered:
                entry_create(
                    event=event,
                    player=player,
                    club=plays_for,
                    divisions=[Division(division_kind("duplicate"), division)],
                    by=None,
                )
            if plan.played:
                self._play_duplicate(
                    division, 1, [player for player, _c in entered], rng, turns=None
                )

    def _play_paired(
        self, club: Club, plan: PairedPlan, players: list[Player], rng: random.Random
    ) -> None:
        competition = competition_create(club=club, settings=plan.settings)
        entrants = players[plan.entrants]
        if plan.seeded:
            entrants = sorted(entrants, key=lambda p: -(p.rating or 0))
        for number, player in enumerate(entrants, 1):
            entrant_add(
                competition=competition, player=player, seed=number if plan.seeded else None
            )
        for number in range(1, plan.rounds + 1):
            last = number == plan.rounds
            round_obj = round_create(competition=competition, date=plan.date_of(number))
            if plan.present_by_lot:
                active = entrants_active_in(round_obj)
                present = [e.player_id for e in active if rng.random() > 0.12]
                round_set_attendance(round=round_obj, present_player_ids=present)
            elif last and plan.absent_last is not None:
                away = players[plan.absent_last]
                present = [player.pk for player in entrants if player != away]
                round_set_attendance(round=round_obj, present_player_ids=present)
            round_pair(round=round_obj)
            if last and plan.moves_last:
                self._enter_demo_games(round_obj)
            share = plan.last_share if last else 1.0
            self._play(round_obj, rng, low=plan.low, high=plan.high, share=share)
        if plan.draft:
            draft = round_create(competition=competition, date=plan.date_of(plan.rounds + 1))
            round_pair(round=draft)

    def _play_duplicate(
        self,
        competition: DuplicateCompetition,
        number: int,
        players: list[Player],
        rng,
        *,
        turns: int | None,
    ) -> None:
        """An evening of `turns` turns: all but the last with their tops on the board and
        everyone's slip, the last drawn and open with most slips in, but not the demo
        player's (who hands it in on the slip page) nor the secretary's. `turns=None`: the
        evening played to its end, every top on the board."""
        evening = evening_create(competition=competition, number=number, by=None)
        number = 0
        while master_game(evening).ending is None and number != turns:
            number += 1
            last = number == turns
            turn = turn_draw(evening=evening, by=None, rng=rng)
            game = master_game(evening)
            assert game.rack is not None  # drawn just now
            plays = sorted(game.generator.plays(game.game, game.rack), reverse=True)
            for player in players[2:12] if last else players:
                # Mostly a good play, the top now and then; a claim sometimes off by a bit.
                play = plays[min(len(plays) - 1, int(rng.random() ** 3 * len(plays)))]
                claimed = play.score + rng.choice([0, 0, 0, 0, 2, -1])
                slip_submit(
                    turn=turn,
                    player_id=player.pk,
                    text=f"{play.notation.split(' ')[0]} {play.word}",
                    claimed=max(claimed, 0),
                    by=None,
                    position=game,
                )
            if not last:
                turn_choose_top(turn=turn, by=None)

    def _enter_demo_games(self, round_obj: Round) -> None:
        """Complete Gouds 8 games entered move by move, from games/demo/*.gcg."""
        games = round_obj.games.exclude(outcome=Outcome.BYE).order_by("table")
        for game, path in zip(games, sorted(DEMO_DIR.glob("*.gcg")), strict=False):
            moves_import_gcg(game=game, data=path.read_bytes(), by=None)

    def _play(self, round_obj: Round, rng: random.Random, *, low: int, high: int, share: float):
        entries = []
        games = (
            round_obj.games.exclude(outcome=Outcome.BYE)
            .without_result()
            .with_seats()
            .order_by("table")
        )
        for game in games:
            if rng.random() > share:
                continue
            roll = rng.random()
            seats = len(game.seat_list)
            if seats > 2:  # a table of 3 or 4: scores, a flag at table 1 of round 2
                flag = roll < 0.05 or (round_obj.number, game.table) == (2, 1)
                kind = ResultKind.FLAG_A if flag else ResultKind.NORMAL
                scores = tuple(rng.randint(low, high) for _seat in range(seats))
                result = ResultInput(kind=kind, scores=scores)
            elif roll < 0.03:
                result = ResultInput(kind=ResultKind.FORFEIT_B)
            elif roll < 0.05:
                result = ResultInput(kind=ResultKind.ANNULLED)
            else:
                kind = ResultKind.FLAG_A if roll < 0.09 else ResultKind.NORMAL
                result = ResultInput.of_pair(kind, rng.randint(low, high), rng.randint(low, high))
            entries.append(ResultEntry(game_id=game.pk, result=result))
        round_record_results(round=round_obj, entries=entries, by=None)

    def _print_logins(self) -> None:
        # Verbosity 0 (`bordpunt demo`): the caller says it, in its user's language.
        if not self.verbosity:
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo logins (password “{DEMO_PASSWORD}”): secretaris (club secretary), "
                "speler (player), admin (site administrator, /admin/)."
            )
        )
