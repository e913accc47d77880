"""The club's ratings from the database (competition/ratings.py) and `manage.py ratings`:
which games count, how evenings become periods, the known start, the cache after a
corrected result, and the query count."""

import csv
import datetime
import io
import json

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.utils import timezone

from competition.core import ratings
from competition.models import Competition
from competition.ratings import club_periods, club_ratings
from games.models import Confirmation, Outcome
from games.services import ResultInput, ResultKind, game_record_result
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    secretary_of,
)
from tests.seats import Winner

pytestmark = pytest.mark.django_db

D1, D2, D3 = datetime.date(2026, 9, 3), datetime.date(2026, 9, 10), datetime.date(2026, 9, 17)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def played(round, a, b, score_a=300, score_b=250, **fields):
    return GameFactory(
        round=round, player_a=a, player_b=b, played=True, score_a=score_a, score_b=score_b, **fields
    )


def pairs(periods):
    """Each period as its sorted (player, player, score of the first) triples."""
    result = []
    for period in periods:
        games = []
        for table in period.tables:
            first, second = table.seats
            games.append((first.player, second.player, ratings.table_games(table)[0].score))
        result.append((period.key, sorted(games)))
    return result


def test_one_period_per_evening_across_competitions_and_undated_rounds_after_their_last_date():
    club = ClubFactory()
    a, b, c, d = (PlayerFactory(name=n) for n in "ABCD")
    summer = CompetitionFactory(club=club)
    cup = CompetitionFactory(club=club)
    s1 = RoundFactory(competition=summer, date=D1)
    s2 = RoundFactory(competition=summer, date=None)  # undated: after D1 in its competition
    s3 = RoundFactory(competition=summer, date=D2)
    c1 = RoundFactory(competition=cup, date=D1)  # same evening as s1
    played(s1, a, b)
    played(c1, c, d)
    played(s2, a, c, 250, 300)
    played(s3, b, d, 300, 300)
    assert pairs(club_periods(club)) == [
        ("2026-09-03", sorted([(a.pk, b.pk, 1.0), (c.pk, d.pk, 1.0)])),
        (f"{summer.pk}-2", [(a.pk, c.pk, 0.0)]),
        ("2026-09-10", [(b.pk, d.pk, 0.5)]),
    ]


def test_only_settled_results_played_on_the_board_count():
    club = ClubFactory()
    players = [PlayerFactory() for _ in range(14)]
    rated = CompetitionFactory(club=club)
    left_out = CompetitionFactory(club=club, rated=False)
    round_ = RoundFactory(competition=rated, date=D1)
    draft = RoundFactory(competition=rated, date=D2, status="draft")
    p = iter(players)
    counted = played(round_, next(p), next(p))
    flag = GameFactory(
        round=round_,
        player_a=next(p),
        player_b=next(p),
        outcome=Outcome.FLAG_FALL,
        score_a=400,
        score_b=200,
        winner=Winner.B,
    )
    played(round_, next(p), next(p), confirmation=Confirmation.PROVISIONAL, claimed_by="a")
    GameFactory(
        round=round_, player_a=next(p), player_b=next(p), outcome=Outcome.FORFEIT, winner=Winner.A
    )
    GameFactory(
        round=round_,
        player_a=next(p),
        player_b=next(p),
        outcome=Outcome.ANNULLED,
        winner=Winner.NONE,
    )
    GameFactory(round=round_, player_a=next(p), table=None, player_b=None, bye=True)
    played(draft, next(p), next(p))
    played(RoundFactory(competition=left_out, date=D1), players[0], players[2])
    assert pairs(club_periods(club)) == [
        (
            "2026-09-03",
            sorted(
                [
                    (counted.players[0].pk, counted.players[1].pk, 1.0),
                    # A flag fall: the first player's flag fell, 400 against 200 is a loss.
                    (flag.players[0].pk, flag.players[1].pk, 0.0),
                ]
            ),
        )
    ]


def test_a_known_start_and_the_club_system():
    club = ClubFactory()
    strong = PlayerFactory(rating=1800, rating_deviation=60)
    new = PlayerFactory()
    played(RoundFactory(competition=CompetitionFactory(club=club), date=D1), new, strong, 400, 300)
    glicko = club_ratings(club)
    by_hand = ratings.compute(
        [
            ratings.Period(
                "x", (ratings.Table((ratings.Seat(new.pk, 400), ratings.Seat(strong.pk, 300))),)
            )
        ],
        starts={strong.pk: ratings.Start(1800, 60)},
    )
    assert glicko.row_of(strong.pk).rating == by_hand[strong.pk].rating.rating
    assert glicko.row_of(strong.pk).rating < 1800  # lost to a newcomer
    assert not glicko.row_of(strong.pk).provisional and glicko.row_of(new.pk).provisional
    club.rating_system = "elo"
    club.save()
    elo = club_ratings(club)
    # Elo: the newcomer 1500 beats 1800: E = 1 / (1 + e^(0.0031879 · 300)) = 1 / 3.6022
    # = 0.2776; 40 · (1 - 0.2776) = 28.9
    assert elo.row_of(new.pk).rating == pytest.approx(1528.9, abs=0.05)
    assert elo.row_of(new.pk).deviation is None


def test_a_corrected_old_result_changes_every_later_rating_at_once():
    club = ClubFactory()
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    competition = CompetitionFactory(club=club)
    first = played(RoundFactory(competition=competition, date=D1), a, b, 400, 300)
    played(RoundFactory(competition=competition, date=D2), b, c, 400, 300)
    before = club_ratings(club).row_of(c.pk).rating
    assert club_ratings(club).row_of(c.pk).rating == before  # from the cache
    game_record_result(
        game=first,
        result=ResultInput.of_pair(kind=ResultKind.NORMAL, score_a=300, score_b=400),
        by=secretary_of(club),
        reason="typo",
    )
    after = club_ratings(club).row_of(c.pk).rating
    # c lost to b, who won the first evening after the correction: a loss to a stronger
    # player costs less.
    assert after > before
    cache.clear()
    assert club_ratings(club).row_of(c.pk).rating == after


def test_a_change_stamped_by_a_server_whose_clock_is_behind_still_refreshes_the_ratings():
    """Each app server stamps `changed_at` by its own clock: a corrected result stamped
    before another competition's last change (a server whose clock is a few minutes
    behind) must still give the ratings a new version, in the cache every server shares."""
    club = ClubFactory()
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    cup = CompetitionFactory(club=club)
    first = played(RoundFactory(competition=cup, date=D1), a, b, 400, 300)
    played(RoundFactory(competition=cup, date=D2), b, c, 400, 300)
    ahead = timezone.now() + datetime.timedelta(minutes=5)
    Competition.objects.filter(pk=CompetitionFactory(club=club).pk).update(changed_at=ahead)
    before = club_ratings(club).row_of(c.pk).rating
    game_record_result(
        game=first,
        result=ResultInput.of_pair(kind=ResultKind.NORMAL, score_a=300, score_b=400),
        by=secretary_of(club),
        reason="typo",
    )
    assert club_ratings(club).row_of(c.pk).rating > before


def test_a_cached_list_costs_one_query_and_a_fresh_one_three(django_assert_num_queries):
    club = ClubFactory()
    competition = CompetitionFactory(club=club)
    for day in (D1, D2, D3):
        round_ = RoundFactory(competition=competition, date=day)
        for _ in range(5):
            played(round_, PlayerFactory(), PlayerFactory())
    # The version, the rounds, the games (with the players' names and starts).
    with django_assert_num_queries(3):
        assert len(club_ratings(club).rows) == 30
    with django_assert_num_queries(1):
        club_ratings(club)


def test_the_command_prints_the_list_as_a_table_csv_and_json():
    club = ClubFactory(slug="scrabbleclub")
    anna, bert = PlayerFactory(name="Anna"), PlayerFactory(name="Bert")
    competition = CompetitionFactory(club=club)
    played(RoundFactory(competition=competition, date=D1), anna, bert, 400, 300)
    played(RoundFactory(competition=competition, date=D2), anna, bert, 400, 300)
    out = io.StringIO()
    call_command("ratings", "scrabbleclub", "--format", "json", stdout=out)
    rows = json.loads(out.getvalue())
    assert [row["player"] for row in rows] == ["Anna", "Bert"]
    assert set(rows[0]) == {"player", "rating", "deviation", "volatility", "games", "last_game"}
    assert rows[0]["games"] == 2 and rows[0]["last_game"] == "2026-09-10"
    out = io.StringIO()
    call_command("ratings", str(club.pk), "--format", "csv", "--date", "2026-09-05", stdout=out)
    lines = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [(row["player"], row["games"], row["last_game"]) for row in lines] == [
        ("Anna", "1", "2026-09-03"),
        ("Bert", "1", "2026-09-03"),
    ]
    assert float(lines[0]["rating"]) == pytest.approx(1662.3, abs=0.05)  # core doctest
    out = io.StringIO()
    call_command("ratings", "scrabbleclub", stdout=out)
    assert "Anna" in out.getvalue() and "Glicko-2" in out.getvalue()
    with pytest.raises(CommandError, match="not a date"):
        call_command("ratings", "scrabbleclub", "--date", "10-09-2026")
    with pytest.raises(CommandError, match="No club"):
        call_command("ratings", "nobody")


def _rated_club_of_four():
    """Four members, rated by last season: Anna beat everyone, Bert beat Cor and Dirk, Cor
    beat Dirk (one evening each pair): Anna > Bert > Cor > Dirk."""
    club = ClubFactory()
    anna, bert, cor, dirk = (PlayerFactory(name=n) for n in ("Anna", "Bert", "Cor", "Dirk"))
    season = CompetitionFactory(club=club, slug="vorig")
    day = D1
    for winner, loser in [
        (anna, bert),
        (anna, cor),
        (anna, dirk),
        (bert, cor),
        (bert, dirk),
        (cor, dirk),
    ]:
        played(RoundFactory(competition=season, date=day), winner, loser, 400, 300)
        day += datetime.timedelta(days=7)
    return club, [anna, bert, cor, dirk]


def test_round_one_of_a_tournament_is_seeded_by_the_clubs_rating():
    from competition.services.rounds import round_create
    from pairing.services import round_pairing_preview
    from tests.factories import EntrantFactory

    club, (anna, bert, cor, dirk) = _rated_club_of_four()
    ranking = [row.player_id for row in club_ratings(club).rows]
    assert ranking == [anna.pk, bert.pk, cor.pk, dirk.pk]
    tournament = CompetitionFactory(club=club, kind="tournament", slug="open")
    for player in (dirk, cor, bert, anna):
        EntrantFactory(competition=tournament, player=player)
    first = round_create(competition=tournament)
    pairing = round_pairing_preview(round=first, system="swiss")
    # by rating, "slide": 1 v 3, 2 v 4.
    assert {frozenset((p.player_a, p.player_b)) for p in pairing.pairs} == {
        frozenset((anna.pk, cor.pk)),
        frozenset((bert.pk, dirk.pk)),
    }


def test_groups_are_filled_by_rating_before_the_first_round():
    from competition.services import CompetitionError
    from competition.services.entrants import group_create, groups_fill_by_rating
    from tests.factories import EntrantFactory

    club, (anna, bert, cor, dirk) = _rated_club_of_four()
    newcomer = PlayerFactory(name="Eva", rating=1900)  # a known start, no games here
    competition = CompetitionFactory(club=club, slug="nieuw")
    with pytest.raises(CompetitionError):
        groups_fill_by_rating(competition=competition)
    top = group_create(competition=competition, name="A")
    rest = group_create(competition=competition, name="B")
    for player in (dirk, newcomer, cor, bert, anna):
        EntrantFactory(competition=competition, player=player)
    assert groups_fill_by_rating(competition=competition) == 5
    groups = dict(competition.entrants.values_list("player__name", "group__name"))
    # Eva 1900 (known start) and Anna (three wins) lead; sizes 3 and 2.
    assert groups == {"Eva": "A", "Anna": "A", "Bert": "A", "Cor": "B", "Dirk": "B"}
    assert top.entrants.count() == 3 and rest.entrants.count() == 2
    assert groups_fill_by_rating(competition=competition) == 0  # nothing to move
    RoundFactory(competition=competition)
    GameFactory(round=competition.rounds.get(), player_a=anna, player_b=bert)
    with pytest.raises(CompetitionError, match="begonnen"):
        groups_fill_by_rating(competition=competition)


def test_who_did_not_come_to_a_table_is_not_rated_for_it():
    """Bo did not come; An, Cas and Do played: three games among them, none for Bo."""
    club = ClubFactory()
    an, bo, cas, do = (PlayerFactory(name=name) for name in ("An", "Bo", "Cas", "Do"))
    round_ = RoundFactory(competition=CompetitionFactory(club=club), date=D1)
    game = GameFactory(round=round_, players=[an, bo, cas, do])
    game_record_result(game=game, result=ResultInput("forfeit_b", (300, None, 280, 350)), by=None)
    (period,) = club_periods(club)
    (table,) = period.tables
    assert [seat.player for seat in table.seats] == [an.pk, cas.pk, do.pk]
    games = {(g.player, g.opponent): g.score for g in ratings.table_games(table)}
    assert games[(an.pk, cas.pk)] == 1.0 and games[(do.pk, an.pk)] == 1.0
    assert bo.pk not in {player for player, _opponent in games}
    listed = club_ratings(club)
    assert listed.row_of(bo.pk) is None and listed.row_of(an.pk) is not None
