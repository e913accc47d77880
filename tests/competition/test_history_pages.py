"""The history as the secretary reads it: a competition's history page (filters, pages, a
fixed number of queries, only for its club's secretaries), a game's history on its pages,
archiving from the settings page, and the club page listing archived competitions apart."""

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from clubs.history import HistoryAction, HistoryReason, history_record
from clubs.models import HistoryEntry
from competition.models import Competition
from competition.services.competitions import competition_archive, competition_update
from competition.services.entrants import entrant_add, entrant_withdraw
from competition.views.secretary import HISTORY_PAGE_SIZE
from tests.factories import (
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    GroupFactory,
    PlayerFactory,
    RoundFactory,
    competition_form_data,
)

pytestmark = pytest.mark.django_db


def history_url(competition, **query) -> str:
    url = reverse("competition_history", kwargs=competition.url_kwargs)
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def entry_ids(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'id="history-(\d+)"', html)]


def result_entry(game, *, by, at, before, after, reason="", reason_code=""):
    """A result's entry as the results service writes it."""
    return history_record(
        club_id=game.round.competition.club_id,
        by=by,
        action=HistoryAction.RESULT_CORRECT if before else HistoryAction.RESULT_ENTER,
        object_type="game",
        object_id=game.pk,
        label=f"Ronde {game.round.number}, tafel {game.table}: {game}",
        before=before,
        after=after,
        reason=reason,
        reason_code=reason_code,
        competition_id=game.round.competition_id,
        round_number=game.round.number,
        game_id=game.pk,
        at=at,
    )


@pytest.fixture
def history(competition, secretary, staff):
    """Entries by two people over two rounds, oldest first."""
    start = timezone.now() - datetime.timedelta(hours=1)
    anna, bert = PlayerFactory(name="Anna"), PlayerFactory(name="Bert")
    entrant = entrant_add(competition=competition, player=anna, by=secretary)
    entrant_add(competition=competition, player=bert, by=staff)
    entrant_withdraw(entrant=entrant, from_round=3, by=secretary)
    competition_update(
        competition=competition,
        settings={"tiebreaks": ["wins", "sonneborn_berger"], "rules": "standard"},
        by=secretary,
        reason="ledenvergadering",
    )
    games = [
        GameFactory(round=RoundFactory(competition=competition, number=n), player_a=anna)
        for n in (1, 2)
    ]
    for minutes, game in enumerate(games):
        result_entry(
            game,
            by=secretary,
            at=start + datetime.timedelta(minutes=minutes),
            before={"outcome": "normal", "winner": "a", "score_a": 300, "score_b": 200},
            after={"outcome": "flag_fall", "winner": "b", "score_a": 300, "score_b": 320},
            reason="klok",
        )
    return games


def test_the_secretary_reads_everything_newest_first(secretary_client, competition, history):
    response = secretary_client.get(history_url(competition))
    assert response.status_code == 200
    html = response.content.decode()
    newest_first = list(
        HistoryEntry.objects.filter(competition_id=competition.pk)
        .order_by("-at", "-pk")
        .values_list("pk", flat=True)
    )
    assert entry_ids(html) == newest_first
    # What, who, the object, before → after with codes as words, and the reason.
    assert "Speler ingeschreven" in html
    assert "Instellingen gewijzigd" in html
    assert "beheerder" in html and "secretaris" in html
    assert "saldo" in html and "winstpartijen, Sonneborn-Berger" in html
    assert "Gouds 8" in html and "standaardregels" in html
    assert "<em>ledenvergadering</em>" in html
    assert "Teruggetrokken vanaf ronde" in html
    # A result reads as a sentence with the players' names, the flag fall's loser named.
    assert f"vlag van Anna gevallen, Anna 300 – 320 {history[0].players[1].name}" in html
    # The page is reached from the competition's secretary navigation.
    assert (
        history_url(competition)
        in secretary_client.get(reverse("entrants", kwargs=competition.url_kwargs)).content.decode()
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"by_name": "beheerder"}, lambda c: {"by_name": "beheerder"}),
        ({"action": HistoryAction.ENTRANT_ADD}, lambda c: {"action": HistoryAction.ENTRANT_ADD}),
        ({"round_number": 2}, lambda c: {"round_number": 2}),
        (
            {"by_name": "secretaris", "action": HistoryAction.RESULT_CORRECT},
            lambda c: {"by_name": "secretaris", "action": HistoryAction.RESULT_CORRECT},
        ),
    ],
)
def test_filters_by_who_what_and_round(secretary_client, competition, history, query, expected):
    html = secretary_client.get(history_url(competition, **query)).content.decode()
    wanted = HistoryEntry.objects.filter(competition_id=competition.pk, **expected(competition))
    assert wanted.exists()
    assert sorted(entry_ids(html)) == sorted(wanted.values_list("pk", flat=True))


def test_the_filters_offer_what_the_history_holds(secretary_client, competition, history):
    html = secretary_client.get(history_url(competition)).content.decode()
    assert '<option value="beheerder">beheerder</option>' in html
    assert f'<option value="{HistoryAction.GROUP_CREATE}"' not in html  # none made
    assert f'<option value="{HistoryAction.ENTRANT_WITHDRAW}">' in html
    assert '<option value="2">2</option>' in html


@pytest.mark.parametrize(
    "query", ["by_name=%00", "action=x", "round_number=%C2%B2", "round_number=99", "pagina=-1"]
)
def test_odd_filters_show_the_page_not_an_error(secretary_client, competition, history, query):
    response = secretary_client.get(history_url(competition) + "?" + query)
    assert response.status_code == 200


def test_another_clubs_history_stays_out(secretary_client, competition, history):
    elsewhere = CompetitionFactory()
    history_record(
        club_id=elsewhere.club_id,
        by=None,
        action=HistoryAction.GROUP_CREATE,
        object_type="group",
        label="Geheim",
        competition_id=elsewhere.pk,
    )
    html = secretary_client.get(history_url(competition)).content.decode()
    assert "Geheim" not in html


def test_pages_of_fifty(secretary_client, competition, secretary):
    for number in range(HISTORY_PAGE_SIZE + 5):
        history_record(
            club_id=competition.club_id,
            by=secretary,
            action=HistoryAction.GROUP_CREATE,
            object_type="group",
            label=f"Groep {number:03d}",
            competition_id=competition.pk,
        )
    first = secretary_client.get(history_url(competition)).content.decode()
    second = secretary_client.get(history_url(competition, pagina=2)).content.decode()
    assert len(entry_ids(first)) == HISTORY_PAGE_SIZE
    assert len(entry_ids(second)) == 5
    assert "Groep 054" in first and "Groep 000" in second
    assert "pagina=2" in first


@pytest.mark.parametrize("count", [3, 120])
def test_a_fixed_number_of_queries(
    secretary_client, competition, secretary, staff, django_assert_num_queries, count
):
    """Session, user, competition, membership, the three filters' choices, count, page."""
    for number in range(count):
        history_record(
            club_id=competition.club_id,
            by=secretary if number % 2 else staff,
            action=HistoryAction.ROUND_STATUS,
            object_type="round",
            before={"status": "draft"},
            after={"status": "published"},
            round_number=number % 7 + 1,
            competition_id=competition.pk,
        )
    url = history_url(competition, by_name="secretaris")
    secretary_client.get(url)  # warm up the session
    with django_assert_num_queries(9):
        assert secretary_client.get(url).status_code == 200


@pytest.mark.parametrize("who", [None, "member", "other_secretary"])
def test_only_the_clubs_secretaries_see_the_history(client, request, competition, history, who):
    if who:
        client.force_login(request.getfixturevalue(who))
    response = client.get(history_url(competition))
    if who is None:
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    else:
        assert response.status_code == 403


# --- a game's history -------------------------------------------------------------------


@pytest.fixture
def corrected(competition, secretary):
    game = GameFactory(round=RoundFactory(competition=competition, number=1), played=True)
    result_entry(
        game,
        by=None,
        at=timezone.now() - datetime.timedelta(minutes=5),
        before=None,
        after={"outcome": "normal", "winner": "a", "score_a": 321, "score_b": 287},
        reason_code=HistoryReason.FROM_MOVES,
    )
    result_entry(
        game,
        by=secretary,
        at=timezone.now(),
        before={"outcome": "normal", "winner": "a", "score_a": 321, "score_b": 287},
        after={"outcome": "normal", "winner": "b", "score_a": 321, "score_b": 387},
        reason="bordpunten verkeerd opgeteld",
    )
    return game


def test_the_correction_page_shows_the_games_history(secretary_client, competition, corrected):
    url = reverse("game_correct", kwargs={**competition.url_kwargs, "game_id": corrected.pk})
    html = secretary_client.get(url).content.decode()
    ids = entry_ids(html)
    assert ids == list(
        HistoryEntry.objects.filter(game_id=corrected.pk).values_list("pk", flat=True)
    )
    assert "Uitslag gecorrigeerd" in html
    assert "<em>bordpunten verkeerd opgeteld</em>" in html
    assert "<em>uit de zetten</em>" in html
    a, b = corrected.players[0].name, corrected.players[1].name
    assert f"{a} 321 – 287 {b}, {a} wint</span> → <span>{a} 321 – 387 {b}, {b} wint" in html
    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "<em>from the moves</em>" in secretary_client.get(url).content.decode()


def test_the_replay_shows_the_history_to_the_secretary_only(client, secretary, member, corrected):
    url = reverse("replay", kwargs={"game_id": corrected.pk})
    for visitor in (None, member):
        if visitor:
            client.force_login(visitor)
        html = client.get(url).content.decode()
        assert 'id="game-history"' not in html
        assert "bordpunten verkeerd opgeteld" not in html
    client.force_login(secretary)
    html = client.get(url).content.decode()
    assert 'id="game-history"' in html
    assert "bordpunten verkeerd opgeteld" in html


# --- settings, archiving and the club page ----------------------------------------------


def test_the_settings_page_goes_through_the_service(secretary_client, competition, secretary):
    url = reverse("competition_edit", kwargs=competition.url_kwargs)
    data = competition_form_data(name=competition.name, slug=competition.slug, min_games=4)
    assert secretary_client.post(url, data).status_code == 302
    entry = HistoryEntry.objects.get(action=HistoryAction.COMPETITION_SETTINGS)
    assert (entry.before, entry.after, entry.by) == ({"min_games": 0}, {"min_games": 4}, secretary)


def test_creating_a_competition_on_its_page_is_kept(secretary_client, club):
    url = reverse("competition_create", kwargs={"club": club.slug})
    assert secretary_client.post(url, competition_form_data()).status_code == 302
    created = Competition.objects.get(club=club, slug="zomer")
    entry = HistoryEntry.objects.get(action=HistoryAction.COMPETITION_CREATE)
    assert (entry.competition_id, entry.object_label) == (created.pk, "Zomercompetitie")


def test_a_short_name_taken_is_an_error_on_the_field(secretary_client, club, competition):
    url = reverse("competition_create", kwargs={"club": club.slug})
    response = secretary_client.post(url, competition_form_data(slug=competition.slug))
    assert response.status_code == 200
    assert response.context["form"].errors["slug"]


def test_archiving_from_the_settings_page(secretary_client, club, competition, secretary):
    edit = reverse("competition_edit", kwargs=competition.url_kwargs)
    archive = reverse("competition_archive", kwargs=competition.url_kwargs)
    assert archive in secretary_client.get(edit).content.decode()

    # Without the tick, nothing happens.
    secretary_client.post(archive, {"reason": "klaar"})
    assert not Competition.objects.get(pk=competition.pk).is_archived

    response = secretary_client.post(archive, {"confirm": "on", "reason": "seizoen voorbij"})
    assert response.status_code == 302
    assert Competition.objects.get(pk=competition.pk).is_archived
    entry = HistoryEntry.objects.get(action=HistoryAction.COMPETITION_ARCHIVE)
    assert (entry.by, entry.reason) == (secretary, "seizoen voorbij")

    # Still readable, no longer changeable, in Dutch.
    html = secretary_client.get(edit).content.decode()
    assert 'id="archived-notice"' in html and 'id="archive-form"' not in html
    standings = reverse("standings", kwargs=competition.url_kwargs)
    assert secretary_client.get(standings).status_code == 200
    data = competition_form_data(name="Nieuwe naam", slug=competition.slug)
    html = secretary_client.post(edit, data).content.decode()
    assert "gearchiveerd" in html
    assert Competition.objects.get(pk=competition.pk).name == competition.name

    entrants = reverse("entrants", kwargs=competition.url_kwargs)
    html = secretary_client.post(entrants, {"new_player_name": "Cor"}, follow=True)
    assert "gearchiveerd" in html.content.decode()
    assert not competition.entrants.exists()


def test_the_club_page_lists_archived_competitions_apart(client, club, competition):
    old = CompetitionFactory(club=club, name="Seizoen 2024", slug="2024")
    competition_archive(competition=old)
    html = client.get(reverse("club", kwargs={"club": club.slug})).content.decode()
    current, archived = html.split('id="archived-competitions"')
    assert "Clubcompetitie" in current and "Seizoen 2024" not in current
    assert "Seizoen 2024" in archived
    assert "Gearchiveerde competities" in html


def test_the_entrants_page_moves_a_player_to_another_group(secretary_client, competition):
    north, south = (GroupFactory(competition=competition, name=name) for name in ("Noord", "Zuid"))
    entrant = EntrantFactory(competition=competition, group=north)
    url = reverse("entrant_group", kwargs=competition.url_kwargs)
    assert secretary_client.post(url, {"entrant": entrant.pk, "group": south.pk}).status_code == 302
    entrant.refresh_from_db()
    assert entrant.group == south
    assert HistoryEntry.objects.get(action=HistoryAction.ENTRANT_GROUP).after == {"group": "Zuid"}
    # An entrant of another competition is not found.
    foreign = EntrantFactory(group=None)
    secretary_client.post(url, {"entrant": foreign.pk, "group": south.pk})
    foreign.refresh_from_db()
    assert foreign.group is None


def test_a_gcg_upload_shows_the_moves_it_replaced_folded(secretary_client, competition):
    from pathlib import Path

    import rules
    from games.moves import move_add, moves_import_gcg

    game = GameFactory(round=RoundFactory(competition=competition), rules=rules.GOUDS_8.to_dict())
    move_add(game=game, notation="8H WOORD", by=None)
    demo = Path(__file__).resolve().parents[2] / "games" / "demo" / "demo-1.gcg"
    moves_import_gcg(game=game, data=demo.read_bytes(), by=None)
    html = secretary_client.get(history_url(competition)).content.decode()
    folded = re.search(r"<details><summary>Zetten</summary>(.*?)</details>", html, re.S)
    assert folded and "8H WOORD" in folded.group(1)  # the replaced move, kept and shown
