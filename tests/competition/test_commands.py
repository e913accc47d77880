"""The `standings` and `seed_demo` management commands."""

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club, Membership, Player
from competition.models import Competition, Round
from duplicate.models import DuplicateCompetition, Evening, Slip
from events.models import Entry, Event
from games.models import Game, Outcome
from tests.factories import competition_with_results

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def played():
    return competition_with_results(entrants=7, rounds=3)


def test_standings_json(played):
    competition = played.competition
    rows = json.loads(run("standings", str(competition.pk), "--format", "json"))
    assert len(rows) == 7
    for row in rows:
        assert {"rank", "player", "player_id", "games", "match_points", "board_points"} <= set(row)
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)
    assert {row["player_id"] for row in rows} == {player.pk for player in played.players}
    assert {row["player"] for row in rows} == {player.name for player in played.players}
    assert all(row["games"] == 3 for row in rows)  # byes count as games
    # 3 rounds of 3 games and a bye: 2 points per game or bye shared out.
    assert sum(row["match_points"] for row in rows) == 3 * (3 * 2 + 2)


def test_standings_after_round_changes_the_figures(played):
    competition = played.competition
    name = f"{competition.club.slug}/{competition.slug}"
    after_one = json.loads(run("standings", name, "--format", "json", "--after-round", "1"))
    after_all = json.loads(run("standings", name, "--format", "json"))
    assert all(row["games"] == 1 for row in after_one)
    assert sum(row["match_points"] for row in after_one) == 3 * 2 + 2
    by_player = {row["player_id"]: row["board_points"] for row in after_all}
    assert any(row["board_points"] < by_player[row["player_id"]] for row in after_one)


def test_standings_csv_and_table(played):
    competition = played.competition
    rows = list(csv.DictReader(io.StringIO(run("standings", competition.slug, "--format", "csv"))))
    assert len(rows) == 7
    assert list(rows[0])[:3] == ["rank", "player", "player_id"]
    table = run("standings", competition.slug)
    assert competition.name in table
    assert all(player.name[:28] in table for player in played.players)
    assert "after round 3" in table
    assert "after round 2" in run("standings", competition.slug, "--after-round", "2")


def test_the_standings_table_and_csv_show_the_competition_s_tiebreaks(played):
    competition = played.competition
    competition.tiebreaks = ["opponents_match_points", "relative_score"]
    competition.save()
    rows = json.loads(run("standings", competition.slug, "--format", "json"))
    header, *lines = run("standings", competition.slug).splitlines()[1:]
    assert header.split()[-2:] == ["Buchholz", "Rel."]
    for line, row in zip(lines, rows, strict=True):
        buchholz, relative = line.split()[-2:]
        assert float(buchholz) == row["tiebreaks"]["opponents_match_points"]
        assert relative == f"{row['tiebreaks']['relative_score']:.3f}"
    table = list(csv.DictReader(io.StringIO(run("standings", competition.slug, "--format", "csv"))))
    assert list(table[0])[-2:] == ["tiebreak_opponents_match_points", "tiebreak_relative_score"]
    assert [float(row["tiebreak_relative_score"]) for row in table] == [
        row["tiebreaks"]["relative_score"] for row in rows
    ]


def test_standings_unknown_competition():
    with pytest.raises(CommandError):
        call_command("standings", "bestaat-niet")
    with pytest.raises(CommandError):
        call_command("standings", "12345678")


def test_standings_after_round_must_be_positive(played):
    with pytest.raises(CommandError):
        call_command("standings", played.competition.slug, "--after-round", "0")


def test_standings_ambiguous_slug(played):
    other = competition_with_results(entrants=2, rounds=1)
    Competition.objects.filter(pk=other.competition.pk).update(slug=played.competition.slug)
    with pytest.raises(CommandError, match="ambiguous"):
        call_command("standings", played.competition.slug)


def test_seed_demo_refuses_with_debug_off_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--force"):
        call_command("seed_demo")
    assert not Club.objects.exists()
    assert not Competition.objects.exists()


def test_seed_demo_if_empty_twice():
    run("seed_demo", "--if-empty", "--force")
    counts = {model: model.objects.count() for model in (Club, Player, Competition, Round, Game)}
    assert "already present" in run("seed_demo", "--if-empty")
    assert counts == {model: model.objects.count() for model in counts}

    club = Club.objects.get(slug="gouda")
    assert Membership.objects.filter(club=club).count() == 24
    assert Membership.objects.filter(club=club, role=Membership.Role.SECRETARY).count() == 1

    season = Competition.objects.get(club=club, kind=Competition.Kind.CLUB, table_size="2")
    assert season.rules == Competition.Rules.GOUDS_8
    assert season.entrants.count() == 24
    rounds = list(season.rounds.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.FINISHED] * 6 + [
        Round.Status.PUBLISHED,
        Round.Status.DRAFT,
    ]
    assert rounds[7].games.filter(outcome=Outcome.PENDING).count() == 12  # paired, not out
    assert Game.objects.filter(round__competition=season, outcome=Outcome.BYE).exists()
    for finished in rounds[:6]:
        assert not finished.games.filter(outcome=Outcome.PENDING).exists()
        assert finished.games.exists()
    assert rounds[6].games.filter(outcome=Outcome.PENDING).exists()  # still being played

    tournament = Competition.objects.get(club=club, kind=Competition.Kind.TOURNAMENT)
    assert tournament.rules == Competition.Rules.STANDARD
    t_rounds = list(tournament.rounds.all())
    assert len(t_rounds) == tournament.number_of_rounds == 5
    assert all(r.status == Round.Status.FINISHED for r in t_rounds)
    assert not Game.objects.filter(round__competition=tournament, outcome=Outcome.PENDING).exists()

    # The Thursday foursomes: 14 players, every round two tables of 4 and two of 3, but
    # the last, with one player absent: a table of 4 and three of 3. A flag fell at one.
    foursomes = Competition.objects.get(club=club, table_size="fours")
    assert foursomes.rules == Competition.Rules.STANDARD
    rounds = list(foursomes.rounds.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.FINISHED] * 3 + [Round.Status.PUBLISHED]
    for round_obj in rounds:
        sizes = sorted(len(game.seat_list) for game in round_obj.games.with_seats())
        assert sizes == ([3, 3, 3, 4] if round_obj.number == 4 else [3, 3, 4, 4])
    assert rounds[3].games.filter(outcome=Outcome.PENDING).exists()
    assert Game.objects.filter(round__competition=foursomes, outcome=Outcome.FLAG_FALL).exists()

    # Evening 1 played to its end, every top on the board; evening 2 under way: five tops
    # on the board with everyone's slip, the sixth turn open with ten slips in, not the
    # demo player's (speler) nor the secretary's.
    duplicate = DuplicateCompetition.objects.get(club=club, event=None)
    finished = Evening.objects.get(competition=duplicate, number=1)
    assert finished.turns.count() > 10
    assert not any(turn.is_open for turn in finished.turns.all())
    evening = Evening.objects.get(competition=duplicate, number=2)
    turns = list(evening.turns.order_by("number"))
    assert [turn.is_open for turn in turns] == [False] * 5 + [True]
    assert [turn.slips.count() for turn in turns] == [16] * 5 + [10]
    open_slips = Slip.objects.filter(turn=turns[-1])
    assert not open_slips.filter(player__user__username__in=["speler", "secretaris"]).exists()
    assert Slip.objects.filter(turn__evening=evening, is_top=True).exists()
    assert Slip.objects.filter(turn__evening=evening, corrected=True).exists()

    # Across clubs: the federation NTSV with its season, a played interclub whose duplicate
    # division has six players of each of two clubs, all entered for their club; and the
    # club's own open event with members of both clubs and a guest.
    federation = Club.objects.get(slug="ntsv", is_federation=True)
    interclub = Event.objects.get(organiser=federation, kind=Event.Kind.INTERCLUB)
    assert interclub.season.federation == federation
    division = DuplicateCompetition.objects.get(event=interclub)
    assert division.club == federation
    entries = Entry.objects.filter(event=interclub)
    assert sorted(entries.values_list("club__slug", flat=True)) == ["gouda"] * 6 + ["leiden"] * 6
    assert division.participants.count() == 12
    played = Evening.objects.get(competition=division, number=1)
    assert not any(turn.is_open for turn in played.turns.all())
    assert Slip.objects.filter(turn__evening=played).values("player").distinct().count() == 12
    open_event = Event.objects.get(organiser=club)
    clubs_entered = Entry.objects.filter(event=open_event).values_list("club__slug", flat=True)
    assert sorted(clubs_entered, key=str) == sorted(
        ["gouda"] * 4 + ["leiden"] * 3 + [None], key=str
    )
