"""Demo data: a club with 24 players, a running Gouds 8 club competition (its next round a
draft), a finished standard-rules tournament, Thursday foursomes (tables of 3 and 4, absent
players), a finished duplicate evening and one under way; a second club, the federation
NTSV with a season and a played interclub (a duplicate division, players of both clubs),
and the club's own open duplicate event, all made through the same services the pages
use. Every kind of result is in it: scores, moves, walk-overs, flag falls, annulled games,
byes; the browser crawl (tests/e2e/test_crawl.py) opens it all."""

import random
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

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
        if if_empty and Club.objects.exists():
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

        start = date(2026, 9, 1)
        season = competition_create(
            club=club,
            settings=dict(
                name="Clubcompetitie 2026–2027",
                slug="competitie-2026",
                kind=Competition.Kind.CLUB,
                rules=Competition.Rules.GOUDS_8,
                start_date=start,
                ranking=Competition.Ranking.TOTALS,
                tiebreaks=["spread", "wins", "opponents_match_points"],
            ),
        )
        for player in players:
            entrant_add(competition=season, player=player, joined_round=1)
        for number in range(1, 8):
            round_obj = round_create(competition=season, date=start + timedelta(weeks=number - 1))
            active = entrants_active_in(round_obj)
            present = [e.player_id for e in active if rng.random() > 0.12]
            round_set_attendance(round=round_obj, present_player_ids=present)
            round_pair(round=round_obj)
            if number == 7:
                self._enter_demo_games(round_obj)
            # Rounds 1-6 finish with their last result, round 7 is published with its first.
            self._play(round_obj, rng, low=110, high=330, share=1.0 if number < 7 else 0.3)
        # Round 8 is paired and not yet published: a draft, the secretaries' alone.
        round_pair(round=round_create(competition=season, date=start + timedelta(weeks=7)))

        tournament = competition_create(
            club=club,
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
        )
        for seed_number, player in enumerate(
            sorted(players[:12], key=lambda p: -(p.rating or 0)), 1
        ):
            entrant_add(competition=tournament, player=player, seed=seed_number)
        for _number in range(5):
            round_obj = round_create(competition=tournament, date=date(2026, 6, 13))
            round_pair(round=round_obj)
            self._play(round_obj, rng, low=280, high=520, share=1.0)

        foursomes = competition_create(
            club=club,
            settings=dict(
                name="Donderdag in viertallen",
                slug="viertallen-2026",
                kind=Competition.Kind.CLUB,
                rules=Competition.Rules.STANDARD,
                start_date=start,
                table_size="fours",
                tiebreaks=["relative_score", "wins"],
            ),
        )
        for player in players[:14]:
            entrant_add(competition=foursomes, player=player, joined_round=1)
        for number in range(1, 5):
            round_obj = round_create(
                competition=foursomes, date=start + timedelta(weeks=number - 1, days=2)
            )
            # One is absent on the last evening: its tables are of 4 and of 3.
            if number == 4:
                present = [player.pk for player in players[:14] if player != players[5]]
                round_set_attendance(round=round_obj, present_player_ids=present)
            round_pair(round=round_obj)
            # Rounds 1-3 finish; round 4 is published with half of its tables in.
            self._play(round_obj, rng, low=150, high=420, share=1.0 if number < 4 else 0.5)

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
        interclub = event_create(
            organiser=ntsv,
            settings=dict(
                name="Interclub Gouda 2026",
                slug="interclub-gouda-2026",
                kind=Event.Kind.INTERCLUB,
                date=date(2026, 11, 14),
                season=season,
                guests_allowed=False,
                entry_closes_at=datetime(2026, 11, 7, 17, 0, tzinfo=UTC),
            ),
            by=None,
        )
        division = duplicate_create(
            club=ntsv,
            settings=dict(
                name="Interclub Gouda 2026",
                slug="interclub-gouda-2026",
                rules=DuplicateCompetition.Rules.STANDARD,
                start_date=date(2026, 11, 14),
            ),
            by=None,
            event=interclub,
        )
        # Twelve players, six of each club: enough for a ranking, cheap to seed.
        field = [(player, club) for player in players[2:8]] + [(p, leiden) for p in guests[:6]]
        for player, for_club in field:
            entry_create(
                event=interclub,
                player=player,
                club=for_club,
                divisions=[Division(division_kind("duplicate"), division)],
                by=None,
            )
        self._play_duplicate(division, 1, [player for player, _c in field], rng, turns=None)

        open_event = event_create(
            organiser=club,
            settings=dict(
                name="Gouds Duplicate Open 2027",
                slug="duplicate-open-2027",
                kind=Event.Kind.OPEN,
                date=date(2027, 2, 13),
                entry_closes_at=datetime(2026, 12, 1, 17, 0, tzinfo=UTC),
            ),
            by=None,
        )
        open_division = duplicate_create(
            club=club,
            settings=dict(
                name="Duplicate Open 2027",
                slug="duplicate-open-2027",
                rules=DuplicateCompetition.Rules.STANDARD,
                start_date=date(2027, 2, 13),
            ),
            by=None,
            event=open_event,
        )
        guest = player_save(Player(name="Gerrit Gast"), by=None)
        entered: list[tuple[Player, Club | None]] = [(p, club) for p in players[:4]]
        entered += [(p, leiden) for p in guests[:3]] + [(guest, None)]
        for player, plays_for in entered:
            entry_create(
                event=open_event,
                player=player,
                club=plays_for,
                divisions=[Division(division_kind("duplicate"), open_division)],
                by=None,
            )

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
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo logins (password “{DEMO_PASSWORD}”): secretaris (club secretary), "
                "speler (player), admin (site administrator, /admin/)."
            )
        )
