"""Importing a results file on the federation's Bordpunt: the preview says everything, the
import is all or nothing, the same event never twice, every bad file refused with a clear
message and nothing written."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Player
from events.models import Event, Season
from ranking.files_import import ResultsImportError, results_import_apply, results_import_plan
from ranking.models import RankedEvent, RankedGame, RankedResult
from tests.factories import ClubFactory, PlayerFactory, UserFactory, secretary_of
from tests.ranking.files.files_data import GAME_ONE, GOUDA, as_json, edited, interclub

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, ...]:
    return (
        RankedEvent.objects.count(),
        RankedGame.objects.count(),
        RankedResult.objects.count(),
        Player.objects.count(),
        HistoryEntry.objects.count(),
    )


def refused(data: bytes, season: Season, by) -> list[str]:
    """Refused at preview and at import alike, with nothing written."""
    before = counts()
    plan = results_import_plan(data=data, season=season, by=by)
    assert not plan.can_apply and plan.problems
    with pytest.raises(ResultsImportError) as caught:
        results_import_apply(data=data, season=season, by=by)
    assert counts() == before
    assert caught.value.errors == plan.problems
    return plan.problems


def test_preview_says_what_would_happen(season, official, clubs):
    anna = PlayerFactory(name="Anna de Vries", federation_number="1001")
    PlayerFactory(name="BERT  Bakker", federation_number="1002")  # spelled otherwise here
    data = as_json(interclub())
    before = counts()
    plan = results_import_plan(data=data, season=season, by=official)
    assert counts() == before  # a preview writes nothing
    assert plan.can_apply and plan.problems == []
    assert [p.name for p in plan.matched] == ["Anna de Vries", "Bert Bakker"]
    assert plan.matched[0].player_id == anna.pk
    assert plan.matched[1].name_here == "BERT  Bakker"
    assert [(p.name, p.federation_number) for p in plan.new] == [
        ("Cor Cornelissen", "1003"),
        ("Dirk Dekker", "1004"),
    ]
    assert [p.name for p in plan.without_number] == ["Gast Gastmans"]
    # Clubs by federation code; the name as the file has it, the name here beside it.
    assert [(c.name, c.club_id, c.name_here) for c in plan.clubs] == [
        ("De Goudse Letters", clubs["GL"].pk, ""),
        ("Scrabbleclub Delft", clubs["DE"].pk, "Delftse Scrabblers"),
    ]
    assert plan.other_gap_values == []


def test_import_all_of_it(season, official, clubs):
    anna = PlayerFactory(name="Anna de Vries", federation_number="1001")
    results = interclub()
    summary = results_import_apply(data=as_json(results), season=season, by=official)
    ranked = summary.ranked
    assert (summary.games, summary.results, summary.new_persons) == (2, 10, 3)
    assert ranked.uid == results.uid and ranked.season == season
    assert ranked.source == RankedEvent.Source.IMPORTED and ranked.by == official
    assert ranked.organiser == "De Goudse Letters" and ranked.kind == "interclub"
    game = ranked.games.get(number=1)
    # Winner 500, median 400 (of 500 450 400 350 300).
    assert (game.winner_points, game.median_points, game.date) == (500, 400.0, date(2026, 10, 3))
    rows = list(
        game.results.order_by("-points").values_list(
            "player__name",
            "federation_number",
            "club__federation_code",
            "club_name",
            "points",
            "percentage",
        )
    )
    assert rows == [
        ("Anna de Vries", "1001", "GL", "De Goudse Letters", 500, 100.0),
        ("Bert Bakker", "1002", "GL", "De Goudse Letters", 450, 90.0),
        ("Cor Cornelissen", "1003", "DE", "Scrabbleclub Delft", 400, 80.0),
        ("Dirk Dekker", "1004", "DE", "Scrabbleclub Delft", 350, 70.0),
        (None, "", None, "", 300, 60.0),  # the guest: no person, no club
    ]
    assert game.results.get(points=500).player == anna  # matched, not made again
    assert Player.objects.get(federation_number="1003").name == "Cor Cornelissen"
    entry = HistoryEntry.objects.get(action=HistoryAction.RANKING_IMPORT)
    assert entry.club_id == season.federation_id and entry.by == official
    assert entry.after == {
        "name": "Interclub Gouda",
        "date": "2026-10-03",
        "games": 2,
        "results": 10,
        "players_created": 3,
    }
    assert entry.object_id == ranked.pk


def test_percentages_with_the_seasons_gap_value(season, official, clubs):
    """The file's percentages were computed with GV 25; the season's GV is 20."""
    data = as_json(interclub(gap_value=Decimal("25")))
    plan = results_import_plan(data=data, season=season, by=official)
    assert plan.can_apply and plan.other_gap_values == [Decimal("25")]
    ranked = results_import_apply(data=data, season=season, by=official).ranked
    # 450: 100 − 50 × 20 / 100 = 90 (the file says 100 − 50 × 25 / 100 = 87.5).
    assert (
        RankedResult.objects.get(game__event=ranked, game__number=1, points=450).percentage == 90.0
    )


def test_the_same_event_twice_is_refused(season, official, clubs):
    data = as_json(interclub())
    results_import_apply(data=data, season=season, by=official)
    problems = refused(data, season, official)
    assert "already in the ranking" in problems[0]
    # The same event under another name and file (re-exported after a correction).
    again = interclub(uid=RankedEvent.objects.get().uid, name="Interclub Gouda (nieuw)")
    assert "already in the ranking" in refused(as_json(again), season, official)[0]


def test_an_event_played_here_is_not_imported(season, official, clubs):
    results = interclub()
    Event.objects.create(organiser=clubs["GL"], name="Interclub", slug="ic", uid=results.uid)
    assert "played on this Bordpunt" in refused(as_json(results), season, official)[0]


def test_a_date_outside_the_season(season, official, clubs):
    data = as_json(interclub(day=date(2027, 8, 1)))
    (problem,) = refused(data, season, official)
    assert "2027-08-01" in problem and "outside the season" in problem


def test_another_federations_season_or_a_club(season, official, clubs):
    other = ClubFactory(name="SBNL", slug="sbnl", is_federation=True)
    theirs = Season.objects.create(
        federation=other, name="SBNL 2026", slug="2026", start=season.start, end=season.end
    )
    assert "officials" in refused(as_json(interclub()), theirs, official)[0]
    club_season = Season.objects.create(
        federation=clubs["GL"], name="Club", slug="c", start=season.start, end=season.end
    )
    assert "not a federation" in refused(as_json(interclub()), club_season, None)[0]


def test_a_secretary_of_a_club_is_not_an_official(season, clubs):
    assert "officials" in refused(as_json(interclub()), season, secretary_of(clubs["GL"]))[0]
    assert "officials" in refused(as_json(interclub()), season, UserFactory())[0]


def test_staff_and_the_command_may(season, clubs):
    assert results_import_plan(data=as_json(interclub()), season=season, by=None).can_apply
    staff = UserFactory(is_staff=True)
    assert results_import_plan(data=as_json(interclub()), season=season, by=staff).can_apply


def test_two_clubs_claiming_one_person(season, official, clubs):
    """Federation number 1002 is Els Evers here; the file says Bert Bakker."""
    els = PlayerFactory(name="Els Evers", federation_number="1002")
    (problem,) = refused(as_json(interclub()), season, official)
    assert "1002" in problem and "Els Evers" in problem and "Bert Bakker" in problem
    els.refresh_from_db()
    assert els.name == "Els Evers"  # nobody's record changed


def test_accents_case_and_spaces_are_the_same_name(season, official, clubs):
    anna = PlayerFactory(name="Anna de Vriës", federation_number="1001")
    ranked = results_import_apply(data=as_json(interclub()), season=season, by=official).ranked
    assert RankedResult.objects.filter(game__event=ranked, player=anna).count() == 2
    anna.refresh_from_db()
    assert anna.name == "Anna de Vriës"  # the person's name here is kept


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v["games"][0]["results"][0].update(points=5000),  # edited by hand
        lambda v: v.update(format="other"),  # another program's
    ],
)
def test_bad_files_import_nothing(season, official, clubs, change):
    (problem,) = refused(edited(as_json(interclub()), change), season, official)
    assert problem


def test_truncated_imports_nothing(season, official, clubs):
    data = as_json(interclub())
    (problem,) = refused(data[: len(data) // 2], season, official)
    assert "cut off" in problem


def test_a_person_twice_in_one_event(season, official, clubs):
    moved = [("1001", "Anna de Vries", None, 500), *GAME_ONE[1:]]
    (problem,) = refused(as_json(interclub(games=[GAME_ONE, moved])), season, official)
    assert "two clubs" in problem


def test_import_queries_do_not_grow_with_players(season, official, clubs):
    """A file of 10 or of 80 results: the same number of queries (the inserts are batched
    by the backend's limit of parameters beyond that)."""

    def queries(players: int) -> int:
        rows = [(f"{players}-{i}", f"Speler {players}-{i}", GOUDA, 300 + i) for i in range(players)]
        data = as_json(interclub(games=[rows, rows]))
        with CaptureQueriesContext(connection) as captured:
            results_import_apply(data=data, season=season, by=official)
        return len(captured)

    queries(3)  # the official's rights, asked once per request, are kept on the user
    assert queries(5) == queries(40)
