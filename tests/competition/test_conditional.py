"""Cheap repeat visits: public pages answer If-None-Match with 304 (one query) until the
competition changes; every service that changes what the pages show moves the
competition's `changed_at` forward, and a failed write does not."""

import pytest
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.http import HttpRequest
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.models import Competition, Round
from competition.services import CompetitionError
from competition.services.entrants import entrant_add, entrant_withdraw, group_create
from competition.services.rounds import (
    round_clear_pairings,
    round_create,
    round_set_attendance,
    round_set_status,
)
from games.models import Outcome
from games.moves import move_add, move_undo
from games.services import ResultError, ResultInput, ResultKind, game_record_result
from tests.factories import PlayerFactory, competition_with_results, secretary_of, user_in_club
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db

PAGES = ["standings", "standings_json", "standings_csv", "crosstable", "round", "round_json"]
PAGES += ["round_print", "player"]


@pytest.fixture
def played():
    return competition_with_results(entrants=6, rounds=2)


def url(name: str, played) -> str:
    kwargs = dict(played.competition.url_kwargs)
    if name.startswith("round"):
        kwargs["number"] = 2
    if name == "player":
        kwargs["player_id"] = played.players[0].pk
    return reverse(name, kwargs=kwargs)


def touch(competition: Competition) -> None:
    """A change through a service: a result corrected, with its reason."""
    game = competition.rounds.get(number=2).games.exclude(outcome=Outcome.BYE).last()
    game_record_result(
        game=game,
        result=ResultInput.of_pair(ResultKind.NORMAL, game.scores[0] + 1, game.scores[1]),
        by=None,
        reason="telfout",
    )


@pytest.mark.parametrize("name", PAGES)
def test_unchanged_page_answers_304_with_one_query(client, played, name, django_assert_num_queries):
    first = client.get(url(name, played))
    assert first.status_code == 200
    if name not in {"standings_json", "standings_csv", "round_json"}:
        # An HTML page's forms hold a token made from the CSRF cookie set by the first
        # visit; the ETag of the next one covers that cookie.
        assert not first.has_header("ETag")
        first = client.get(url(name, played))
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    with django_assert_num_queries(1):
        again = client.get(url(name, played), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again["ETag"] == etag
    assert again.content == b""

    touch(played.competition)
    changed = client.get(url(name, played), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_the_new_content_follows_the_change(client, played):
    standings = url("standings_json", played)
    before = client.get(standings)
    touch(played.competition)
    after = client.get(standings, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after.json() != before.json()


def test_etag_depends_on_the_language(client, played):
    page = url("round", played)
    client.get(page)  # the CSRF cookie
    dutch = client.get(page)["ETag"]
    client.cookies["django_language"] = "en"
    english = client.get(page, HTTP_IF_NONE_MATCH=dutch)
    assert english.status_code == 200
    assert english["ETag"] != dutch
    assert client.get(page, HTTP_IF_NONE_MATCH=english["ETag"]).status_code == 304


def test_etag_depends_on_who_sees_drafts(client, played):
    """The JSON of a round is the same for every reader, except that a secretary of the
    club sees drafts: the secretary's ETag differs, a member's does not."""
    page = url("round_json", played)
    public = client.get(page)["ETag"]
    client.force_login(user_in_club(played.competition.club, username="lid"))
    assert client.get(page, HTTP_IF_NONE_MATCH=public).status_code == 304
    client.force_login(secretary_of(played.competition.club, username="secretaris"))
    seen_by_secretary = client.get(page, HTTP_IF_NONE_MATCH=public)
    assert seen_by_secretary.status_code == 200
    assert seen_by_secretary["ETag"] != public


def test_a_pending_message_is_shown_not_skipped(client, competition, secretary):
    competition.number_of_rounds = 1
    competition.save()
    round_create(competition=competition)
    client.force_login(secretary)
    client.get(competition.get_absolute_url())  # the CSRF cookie
    etag = client.get(competition.get_absolute_url())["ETag"]
    refused = client.post(reverse("round_create", kwargs=competition.url_kwargs), {})
    assert refused.status_code == 302  # back to the standings, with the reason
    page = client.get(competition.get_absolute_url(), HTTP_IF_NONE_MATCH=etag)
    assert page.status_code == 200
    assert "Dit toernooi heeft al alle 1 ronden." in page.content.decode()


def test_an_unknown_competition_is_still_404(client, played):
    response = client.get(
        reverse("standings", kwargs={"club": "nergens", "competition": "niets"}),
        HTTP_IF_NONE_MATCH="*",
    )
    assert response.status_code == 404


def changed_at(competition: Competition):
    return Competition.objects.values_list("changed_at", flat=True).get(pk=competition.pk)


def test_every_service_moves_changed_at(competition, four_entrants, make_game_for):
    stamps = [changed_at(competition)]

    def changed():
        stamps.append(changed_at(competition))
        return stamps[-1] > stamps[-2]

    entrant = entrant_add(competition=competition, player=PlayerFactory(name="Eva"))
    assert changed()
    group_create(competition=competition, name="A-groep")
    assert changed()
    round_obj = round_create(competition=competition)
    assert changed()
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in four_entrants])
    assert changed()
    entrant_withdraw(entrant=entrant, from_round=2)
    assert changed()
    game = make_game_for(round_obj, four_entrants[0], four_entrants[1])
    assert changed()
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
    assert changed()
    move_add(game=game, notation="8H WOORD", by=None)
    assert changed()
    move_undo(game=game, by=None)
    assert changed()
    game_record_result(game=game, result=ResultInput.of_pair(ResultKind.NORMAL, 300, 200), by=None)
    assert changed()
    competition.name = "Andere naam"
    competition.save()
    assert changed()


def test_a_refused_write_leaves_changed_at(competition, four_entrants, make_game_for):
    round_obj = round_create(competition=competition)
    game = make_game_for(round_obj, four_entrants[0], four_entrants[1])
    game_record_result(game=game, result=ResultInput.of_pair(ResultKind.NORMAL, 300, 200), by=None)
    before = changed_at(competition)
    with pytest.raises(ResultError):
        game_record_result(game=game, result=ResultInput.of_pair(ResultKind.NORMAL, 1, 2), by=None)
    with pytest.raises(CompetitionError):
        round_clear_pairings(round=round_obj)
    assert changed_at(competition) == before


@pytest.fixture
def make_game_for():
    from competition.services.rounds import round_set_pairings

    def make(round_obj, player_a, player_b):
        (game,) = round_set_pairings(
            round=round_obj, pairings=[pair_spec(player_a.pk, player_b.pk, table=1)]
        )
        return game

    return make


def test_standings_tables_are_kept_until_the_competition_changes(client, played):
    page = url("standings", played)
    with CaptureQueriesContext(connection) as first:
        before = standings_table(client.get(page))
    with CaptureQueriesContext(connection) as second:
        assert standings_table(client.get(page)) == before
    tables = ("competition_entrant", "games_game", "competition_round")
    assert any(table in query["sql"] for query in first for table in tables)
    assert not any(table in query["sql"] for query in second for table in tables)

    touch(played.competition)
    after = standings_table(client.get(page))
    assert after != before  # one more board point for the corrected game's player


def standings_table(response) -> str:
    text = response.content.decode()
    return text[text.index("<table") : text.index("</table>")]


def test_a_visitor_with_a_waiting_message_gets_the_page(client, played):
    page = url("standings", played)
    client.get(page)
    etag = client.get(page)["ETag"]
    client.cookies["messages"] = CookieStorage(HttpRequest())._encode(
        [Message(constants.INFO, "Uitslag opgeslagen.")]
    )
    shown = client.get(page, HTTP_IF_NONE_MATCH=etag)
    assert shown.status_code == 200
    assert "Uitslag opgeslagen." in shown.content.decode()


def test_a_new_stylesheet_alone_changes_the_release(tmp_path, settings, monkeypatch):
    """Pages name static files by their hashed names: a deploy that only changes CSS must
    not let a browser keep a page that refers to the old file."""
    from competition.views.conditional import release

    monkeypatch.delenv("BORDPUNT_RELEASE", raising=False)
    stylesheet = tmp_path / "static" / "css" / "bordpunt.css"
    stylesheet.parent.mkdir(parents=True)
    stylesheet.write_text("a { color: green; }")
    settings.BASE_DIR = tmp_path
    release.cache_clear()
    try:
        before = release()
        stylesheet.write_text("a { color: darkgreen; }")
        release.cache_clear()
        assert release() != before
    finally:
        release.cache_clear()


def test_a_player_or_club_renamed_in_the_admin_shows_at_once(client, played):
    """The standings tables are cached per last change: a new name moves it too, in an
    archived competition as well (which takes no other change)."""
    from clubs.services import club_save, player_save
    from competition.services.competitions import competition_archive

    competition_archive(competition=played.competition)
    page = url("standings", played)
    client.get(page)  # the CSRF cookie
    first = client.get(page)
    player = played.players[0]
    assert player.name in standings_table(first)

    player.name = "Zwaantje Zwart"
    player_save(player, by=None)
    renamed = client.get(page, HTTP_IF_NONE_MATCH=first["ETag"])
    assert renamed.status_code == 200
    assert "Zwaantje Zwart" in standings_table(renamed)

    club = played.competition.club
    club.name = "Scrabbleclub De Letterbak"
    club_save(club, by=None)
    again = client.get(page, HTTP_IF_NONE_MATCH=renamed["ETag"])
    assert again.status_code == 200
    assert "Scrabbleclub De Letterbak" in again.content.decode()
