"""An event's results file, exported from the event played here: every finished evening
of its duplicate divisions a game, each player with the club of their entry, the
percentages by the NTSV formula; read back by the import exactly."""

from __future__ import annotations

import csv
import io
import random
import uuid
from datetime import date
from decimal import Decimal
from fractions import Fraction
from statistics import median

import pytest

from clubs.models import Membership
from duplicate.models import DuplicateCompetition, Participant
from duplicate.replay import master_game
from duplicate.selectors import evening_results
from duplicate.services.evenings import evening_create
from duplicate.services.presence import presence_set
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from events.models import Entry, Event
from ranking.files import FileAbsent, FileClub, event_results_file, results_file_read
from ranking.files_import import results_import_apply
from ranking.models import RankedResult
from tests.factories import ClubFactory, PlayerFactory, UserFactory, secretary_of

pytestmark = pytest.mark.django_db


def play(evening, players, rng, *, turns=None):
    """The evening played as the demo plays it: each player a play of the turn's (a good
    one, the top now and then), every top on the board; `turns`: stop before the end."""
    number = 0
    while master_game(evening).ending is None and number != turns:
        number += 1
        turn = turn_draw(evening=evening, by=None, rng=rng)
        game = master_game(evening)
        plays = sorted(game.generator.plays(game.game, game.rack), reverse=True)
        for player in players:
            play_ = plays[min(len(plays) - 1, int(rng.random() ** 2 * len(plays)))]
            slip_submit(
                turn=turn,
                player_id=player.pk,
                text=f"{play_.notation.split(' ')[0]} {play_.word}",
                claimed=play_.score,
                by=None,
                position=game,
            )
        turn_choose_top(turn=turn, by=None)


def make_event(season, clubs, slug="interclub"):
    """An interclub of Gouda in the season with a duplicate division of four players:
    Anna and Bert for Gouda, Cor for Delft, a guest."""
    gouda = clubs["GL"]
    event = Event.objects.create(
        organiser=gouda,
        name="Interclub Gouda",
        slug=slug,
        kind=Event.Kind.INTERCLUB,
        date=date(2026, 10, 3),
        season=season,
    )
    division = DuplicateCompetition.objects.create(
        club=gouda, name="Groep A", slug=f"{slug}-a", event=event
    )
    names = [
        ("Anna de Vries", "1001", gouda),
        ("Bert Bakker", "1002", gouda),
        ("Cor Cornelissen", "1003", clubs["DE"]),
        ("Gast Gastmans", None, None),
    ]
    players = []
    for name, number, club in names:
        if number and slug != "interclub":  # a second event of the test: other persons
            number = f"{number}-{slug}"
        player = PlayerFactory(name=name, federation_number=number)
        if club is not None:
            Membership.objects.create(club=club, player=player)
        Participant.objects.create(competition=division, player=player)
        Entry.objects.create(event=event, player=player, club=club)
        players.append(player)
    return event, division, players


@pytest.fixture
def under_way(season, clubs):
    """The interclub with its first evening under way (two turns)."""
    event, division, players = make_event(season, clubs)
    evening = evening_create(competition=division, number=1, by=None)
    play(evening, players, random.Random(43), turns=2)
    return event


@pytest.fixture
def interclub(season, clubs):
    """The interclub with its first evening played to the end (a few seconds: the engine
    plays every turn), the second under way."""
    event, division, players = make_event(season, clubs)
    rng = random.Random(43)
    first = evening_create(competition=division, number=1, by=None)
    first.date = date(2026, 10, 3)
    first.save()
    play(first, players, rng)
    second = evening_create(competition=division, number=2, by=None)
    play(second, players, rng, turns=1)
    return event, first, players


def test_the_file_of_an_event(interclub, client, season, official):
    """What the file holds, as the page shows and downloads it, read back exactly, and
    imported on the federation's Bordpunt (here, once the event's uid is given back)."""
    event, evening, players = interclub
    # Dirk, entered for Gouda, recorded absent from the evening: no result, named absent.
    dirk = PlayerFactory(name="Dirk Afwezig", federation_number="1009")
    Entry.objects.create(event=event, player=dirk, club=evening.competition.club)
    absent = Participant.objects.create(competition=evening.competition, player=dirk)
    presence_set(evening=evening, participant=absent, status="absent", by=None)
    exported = event_results_file(event)
    assert exported.unfinished == ("Groep A – 2",)  # under way: not in the file
    results = exported.results
    assert results is not None
    assert (results.uid, results.name, results.kind) == (event.uid, "Interclub Gouda", "interclub")
    assert results.organiser == FileClub("De Goudse Letters", "GL")
    assert results.season == "2026-2027" and results.date == date(2026, 10, 3)
    (game,) = results.games
    assert (game.number, game.division, game.date, game.gap_value) == (
        1,
        "Groep A",
        date(2026, 10, 3),
        Decimal("20"),
    )
    totals = {row.player_id: row.total for row in evening_results(evening)}
    by_name = {result.name: result for result in game.results}
    assert {name: r.points for name, r in by_name.items()} == {
        p.name: totals[p.pk] for p in players
    }
    assert by_name["Anna de Vries"].federation_number == "1001"
    assert by_name["Cor Cornelissen"].club == FileClub("Delftse Scrabblers", "DE")
    assert game.absent == (FileAbsent("1009", "Dirk Afwezig", FileClub("De Goudse Letters", "GL")),)
    guest = by_name["Gast Gastmans"]
    assert guest.club is None and guest.federation_number is None
    # The formula, worked from the totals: 100 − (winner − p) × 20 / (winner − median).
    winner, middle = max(totals.values()), Fraction(median(sorted(totals.values())))
    for result in game.results:
        expected = 100 - (winner - result.points) * Fraction(20) / (winner - middle)
        assert result.percentage == float(expected)

    # The page and the downloads, for a director who is no secretary.
    director = UserFactory()
    event.directors.add(director)
    client.force_login(director)
    base = f"/gouda/evenement/{event.slug}/uitslagenbestand/"
    page = client.get(base)
    assert page.status_code == 200 and "Groep A – 2" in page.content.decode()
    download = client.get(base + "uitslagen.json")
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="interclub-uitslagen.json"'
    assert results_file_read(download.content) == results
    rows = list(csv.reader(io.StringIO(client.get(base + "uitslagen.csv").content.decode())))
    assert rows[0] == ["game", "division", "number", "name", "club", "points", "percentage"]
    assert sorted(row[3] for row in rows[1:]) == sorted(p.name for p in players)

    Event.objects.filter(pk=event.pk).update(uid=uuid.uuid4())
    summary = results_import_apply(data=download.content, season=season, by=official)
    assert summary.results == 4 and summary.new_persons == 0  # all three known by number
    imported = RankedResult.objects.filter(game__event=summary.ranked)
    assert sorted(imported.values_list("name", "points", "percentage")) == sorted(
        (r.name, r.points, r.percentage) for r in game.results
    )


def test_who_may_export(client, under_way, clubs):
    event = under_way
    base = f"/gouda/evenement/{event.slug}/uitslagenbestand/"
    assert client.get(base + "uitslagen.json").status_code == 302  # to the login
    director = UserFactory()
    event.directors.add(director)
    for user in (director, secretary_of(clubs["GL"]), UserFactory(is_staff=True)):
        client.force_login(user)
        assert client.get(base).status_code == 200
    for user in (secretary_of(clubs["DE"]), UserFactory(), secretary_of(ClubFactory())):
        client.force_login(user)
        for address in (base, base + "uitslagen.json", base + "uitslagen.csv"):
            assert client.get(address).status_code == 403
    client.force_login(secretary_of(clubs["GL"]))
    assert client.get(f"/delft/evenement/{event.slug}/uitslagenbestand/").status_code == 404
    assert client.get("/gouda/evenement/geen/uitslagenbestand/").status_code == 404


def test_an_event_without_a_finished_evening(client, under_way, clubs, english):
    event = under_way
    exported = event_results_file(event)
    assert exported.results is None and exported.unfinished == ("Groep A – 1",)
    client.force_login(secretary_of(clubs["GL"]))
    page = client.get("/gouda/evenement/interclub/uitslagenbestand/")
    assert "No evening of this event is finished yet" in page.content.decode()
    download = client.get("/gouda/evenement/interclub/uitslagenbestand/uitslagen.json")
    assert download.status_code == 302


def test_the_page_reads_the_same_whatever_the_number_of_players(client, season, clubs):
    """The results file's page: a fixed number of queries per evening, whatever the number
    of players (here two turns of an evening, of 4 and of 12 players)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(secretary_of(clubs["GL"]))

    def queries(extra: int) -> int:
        event, division, players = make_event(season, clubs, slug=f"ic-{extra}")
        for n in range(extra):
            player = PlayerFactory(name=f"Extra {extra}-{n}")
            Participant.objects.create(competition=division, player=player)
            players.append(player)
        evening = evening_create(competition=division, number=1, by=None)
        play(evening, players, random.Random(43), turns=1)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/gouda/evenement/{event.slug}/uitslagenbestand/").status_code == 200
        return len(captured)

    queries(1)  # the club's status, cached for 10 s by the middleware, read once
    assert queries(0) == queries(8)
