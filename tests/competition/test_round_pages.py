"""The director's round pages: late arrivals on the attendance page, warnings, reopening
and deleting a round on the pairing page, and the starters on the print list."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from competition.models import Absence, Competition, Round
from competition.services.rounds import (
    pairing_version,
    round_create,
    round_record_results,
    round_set_pairings,
    round_set_status,
)
from games.models import Outcome
from games.services import ResultEntry, ResultInput
from tests.factories import EntrantFactory, PlayerFactory
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def url(name, competition, number=1):
    return reverse(name, kwargs={**competition.url_kwargs, "number": number})


@pytest.fixture
def published(competition, four_entrants):
    """Round 1: Anna–Bert at table 1, Cor has the bye, Dirk absent; published."""
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    Absence.objects.create(round=round_obj, player=dirk)
    round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, table=1), pair_spec(cor.pk, None)],
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
    return round_obj


def test_saving_attendance_warns_of_a_present_unpaired_player(
    secretary_client, published, four_entrants
):
    present = [player.pk for player in four_entrants]  # Dirk ticked present
    response = secretary_client.post(
        url("attendance", published.competition), {"action": "attendance", "present": present}
    )
    dirk = four_entrants[3]
    assert response.status_code == 302 and response.url.endswith(f"?nakomer={dirk.pk}#late")
    page = secretary_client.get(response.url).content.decode()
    assert "Dirk is aanwezig maar heeft geen plaats in de indeling van ronde 1" in page
    assert 'id="late"' in page
    assert "tegen Cor (heeft de vrije ronde)" in page
    entry = HistoryEntry.objects.get(action=HistoryAction.ROUND_ATTENDANCE)
    assert (entry.before, entry.after) == ({"absent": ["Dirk"]}, {"absent": []})


def test_late_arrival_against_the_bye_from_the_attendance_page(
    secretary_client, secretary, published, four_entrants
):
    cor, dirk = four_entrants[2:]
    published.absences.all().delete()  # Dirk ticked present
    games = list(published.games.values_list("pk", flat=True))
    response = secretary_client.post(
        url("attendance", published.competition),
        {
            "action": "late",
            "player": dirk.pk,
            "opponent": cor.pk,
            "pairing": pairing_version(published.status, games),
        },
        follow=True,
    )
    page = response.content.decode()
    assert "Dirk speelt tegen Cor aan tafel 2." in page
    game = published.games.get(table=2)
    assert (game.players[0], game.players[1], game.outcome) == (cor, dirk, Outcome.PENDING)
    assert published.games.get(table=1).pk in games  # Anna–Bert untouched
    entry = HistoryEntry.objects.get(action=HistoryAction.PAIRING_LATE)
    assert entry.by == secretary and entry.game_id == game.pk


def test_a_late_arrival_on_a_stale_page_is_refused(secretary_client, published, four_entrants):
    dirk = four_entrants[3]
    published.absences.all().delete()
    response = secretary_client.post(
        url("attendance", published.competition),
        {"action": "late", "player": dirk.pk, "opponent": "bye", "pairing": "9-999"},
        follow=True,
    )
    assert "De indeling is in de tussentijd gewijzigd" in response.content.decode()
    assert published.games.count() == 2


@pytest.mark.parametrize(
    "data",
    [
        {"action": "late", "player": "x", "opponent": "bye", "pairing": "2-1"},
        {"action": "late", "player": "\x00", "opponent": "٣", "pairing": ""},
        {"action": "late"},
    ],
)
def test_odd_late_arrival_posts_change_nothing(secretary_client, published, data):
    response = secretary_client.post(url("attendance", published.competition), data)
    assert response.status_code == 302
    assert published.games.count() == 2


def test_enter_a_player_tonight_plays_from_this_round(secretary_client, published):
    page = secretary_client.get(url("attendance", published.competition)).content.decode()
    assert 'name="enter-joined_round" value="1"' in page
    response = secretary_client.post(
        url("attendance", published.competition),
        {"action": "enter", "enter-new_player_name": "Eva", "enter-joined_round": "1"},
        follow=True,
    )
    page = response.content.decode()
    assert "Eva ingeschreven" in page
    assert "Eva is aanwezig maar heeft geen plaats" in page
    assert published.competition.entrants.get(player__name="Eva").joined_round == 1


def test_entrants_page_offers_tonights_round(secretary_client, published):
    page = secretary_client.get(
        reverse("entrants", kwargs=published.competition.url_kwargs)
    ).content.decode()
    assert 'name="joined_round" value="1"' in page  # round 1 is being played


def test_pairing_page_warns_of_the_unfinished_previous_round(secretary_client, published):
    round_create(competition=published.competition)
    page = secretary_client.get(url("round_pairing", published.competition, 2)).content.decode()
    assert (
        "Ronde 1 heeft nog 1 partij zonder uitslag: een Zwitserse indeling van ronde 2 "
        "behandelt dan iedereen als gelijk." in page
    )


def test_adding_a_round_warns_of_the_unfinished_previous_round(secretary_client, published):
    competition = published.competition
    standings = secretary_client.get(competition.get_absolute_url()).content.decode()
    assert 'id="add-round-warning"' in standings
    response = secretary_client.post(
        reverse("round_create", kwargs=competition.url_kwargs), {"number": "2"}, follow=True
    )
    page = response.content.decode()
    assert "Ronde 2 toegevoegd." in page
    assert "Ronde 1 heeft nog 1 partij zonder uitslag" in page


def test_pairing_page_lists_present_unpaired_players(secretary_client, published):
    published.absences.all().delete()
    page = secretary_client.get(url("round_pairing", published.competition)).content.decode()
    assert "Aanwezig maar niet ingedeeld: Dirk." in page


def test_reopen_and_delete_on_the_pairing_page(secretary_client, published, four_entrants):
    competition = published.competition
    game = published.games.get(table=1)
    round_record_results(
        round=published,
        entries=[ResultEntry(game.pk, ResultInput.of_pair("normal", 300, 200))],
        by=None,
    )
    page = secretary_client.get(url("round_pairing", competition)).content.decode()
    assert 'id="reopen-round"' in page and 'id="delete-round"' not in page
    response = secretary_client.post(
        url("round_pairing", competition), {"action": "reopen", "reason": ""}, follow=True
    )
    assert Round.objects.get(pk=published.pk).status == Round.Status.FINISHED
    assert "Dit veld is verplicht." in response.content.decode()
    response = secretary_client.post(
        url("round_pairing", competition),
        {"action": "reopen", "reason": "Dirk kwam toch"},
        follow=True,
    )
    assert "Ronde 1 heropend." in response.content.decode()
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED
    response = secretary_client.post(
        url("round_pairing", competition), {"action": "delete", "confirm": "on"}, follow=True
    )
    assert "Ronde 1 heeft uitslagen; een ronde met uitslagen wordt nooit verwijderd." in (
        response.content.decode()
    )
    assert Round.objects.filter(pk=published.pk).exists()


def test_delete_a_round_added_by_mistake(secretary_client, published):
    competition = published.competition
    round_create(competition=competition)
    page = secretary_client.get(url("round_pairing", competition, 2)).content.decode()
    assert 'id="delete-round"' in page
    response = secretary_client.post(url("round_pairing", competition, 2), {"action": "delete"})
    assert response.status_code == 200  # the box is not ticked: nothing happens
    assert competition.rounds.count() == 2
    response = secretary_client.post(
        url("round_pairing", competition, 2), {"action": "delete", "confirm": "on"}, follow=True
    )
    assert "Ronde 2 verwijderd." in response.content.decode()
    assert list(competition.rounds.values_list("number", flat=True)) == [1]


def test_a_club_member_cannot_delete_a_round(client, member, published):
    client.force_login(member)
    response = client.post(
        url("round_pairing", published.competition), {"action": "delete", "confirm": "on"}
    )
    assert response.status_code == 403
    assert Round.objects.filter(pk=published.pk).exists()


def test_another_clubs_secretary_cannot_add_a_late_arrival(
    client, other_secretary, published, four_entrants
):
    client.force_login(other_secretary)
    response = client.post(
        url("attendance", published.competition),
        {"action": "late", "player": four_entrants[3].pk, "opponent": "bye"},
    )
    assert response.status_code == 403
    assert published.games.count() == 2


def test_print_list_marks_who_starts(client, competition, four_entrants):
    Competition.objects.filter(pk=competition.pk).update(starters="assigned")
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_pairings(
        round=round_obj,
        pairings=[
            pair_spec(anna.pk, bert.pk, table=1, starter="b"),
            pair_spec(cor.pk, dirk.pk, table=2, starter="a"),
        ],
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
    page = client.get(url("round_print", competition)).content.decode()
    by_table = page[page.index('id="by-table"') : page.index('id="by-name"')]
    by_name = page[page.index('id="by-name"') : page.index('id="starter-legend"')]
    assert by_table.count("●") == 2 and by_name.count("●") == 4
    assert 'Bert <span class="starts"' in by_table and 'Cor <span class="starts"' in by_table
    # By name: Bert starts on his own line and on Anna's (as her opponent).
    assert by_name.count('Bert <span class="starts"') == 2
    assert "● begint" in page


def test_print_list_of_a_round_by_lot_says_so(client, published):
    page = client.get(url("round_print", published.competition)).content.decode()
    assert "●" not in page
    assert "Wie begint, wordt aan tafel geloot." in page


def test_present_player_not_entered_is_not_offered(secretary_client, published):
    published.absences.all().delete()  # Dirk present: the late form is there
    stranger = PlayerFactory(name="Zeno")
    EntrantFactory(competition=published.competition, player=stranger, joined_round=2)
    page = secretary_client.get(url("attendance", published.competition)).content.decode()
    late = page[page.index('id="late"') :]
    assert "Zeno" not in late


def test_a_final_score_is_corrected_and_an_open_game_goes_to_the_board(
    secretary_client, two_rounds, competition
):
    """The round page offers what the game takes (`games.policy.game_actions_for`):
    moves would replace a final score, so such a game offers its correction, not the board."""
    round_obj = competition.rounds.get(number=2)
    played = round_obj.games.first()
    open_round = Round.objects.create(competition=competition, number=3, status="published")
    anna, bert = (EntrantFactory(competition=competition).player for _ in range(2))
    (open_game,) = round_set_pairings(round=open_round, pairings=[pair_spec(anna.pk, bert.pk, 1)])

    played_page = secretary_client.get(round_obj.get_absolute_url()).content.decode()
    open_page = secretary_client.get(open_round.get_absolute_url()).content.decode()

    assert reverse("board", args=[played.pk]) not in played_page
    assert "board-link" not in played_page
    assert reverse("board", args=[open_game.pk]) in open_page


def _late_section(page: str) -> str:
    return page[page.index('id="late"') : page.index('id="enter"')]


def test_only_present_unpaired_players_are_offered_and_the_one_just_ticked_is_chosen(
    secretary_client, published, four_entrants
):
    """Eva came in earlier and is still unseated; Dirk is ticked present now; Fenna stays
    absent. The form offers Eva and Dirk, Dirk chosen; Fenna is not offered at all."""
    competition = published.competition
    eva, fenna = PlayerFactory(name="Eva"), PlayerFactory(name="Fenna")
    for player in (eva, fenna):
        EntrantFactory(competition=competition, player=player)
    Absence.objects.create(round=published, player=fenna)
    present = [player.pk for player in [*four_entrants, eva]]
    response = secretary_client.post(
        url("attendance", competition), {"action": "attendance", "present": present}
    )
    dirk = four_entrants[3]
    assert response.url.endswith(f"?nakomer={dirk.pk}#late")
    late = _late_section(secretary_client.get(response.url).content.decode())
    assert f'<option value="{dirk.pk}" selected>Dirk</option>' in late
    assert f'<option value="{eva.pk}">Eva</option>' in late
    assert "Fenna" not in late
    assert "kies…" not in late
    # Every place is a choice of its own; none is chosen for the secretary.
    assert late.count('type="radio"') == 4  # Cor's bye, new table with Eva or Dirk, a bye
    assert "checked" not in late

    # Opened without a name (a reload): with two to seat, nobody is guessed.
    late = _late_section(secretary_client.get(url("attendance", competition)).content.decode())
    assert '<option value="" selected>kies…</option>' in late

    # An absent player posted anyway is refused and stays absent.
    response = secretary_client.post(
        url("attendance", competition),
        {"action": "late", "player": fenna.pk, "opponent": "bye", "pairing": "x"},
        follow=True,
    )
    assert "kies de plaats opnieuw" in response.content.decode()
    assert published.absences.filter(player=fenna).exists()
    assert not published.games.filter(seats__player=fenna).exists()


def test_the_dutch_texts_say_vrije_ronde_never_bye():
    """The glossary's Dutch for a bye is "vrije ronde"; a Dutch text with "bye" mixes them."""
    po = Path(__file__).parents[2] / "locale" / "nl" / "LC_MESSAGES" / "django.po"
    translations, current = [], None
    for line in po.read_text().splitlines():
        if line.startswith("msgstr"):
            current = line.split(" ", 1)[1]
            translations.append(current)
        elif line.startswith('"') and current is not None:
            translations[-1] += line
        else:
            current = None
    assert translations, po
    # The CSV help names the code typed in a file ("bye"), beside its Dutch meaning.
    translations = [text.replace("bye (vrije ronde", "") for text in translations]
    assert [text for text in translations if re.search(r"\bbye\b", text, re.I)] == []


def test_a_late_arrival_without_a_place_chosen_is_asked_for_it(
    secretary_client, published, four_entrants
):
    dirk = four_entrants[3]
    published.absences.all().delete()
    games = list(published.games.values_list("pk", flat=True))
    response = secretary_client.post(
        url("attendance", published.competition),
        {"action": "late", "player": dirk.pk, "pairing": pairing_version(published.status, games)},
    )
    assert response.url.endswith(f"?nakomer={dirk.pk}#late")
    page = secretary_client.get(response.url).content.decode()
    assert "Kies de nakomer en waar die speelt." in page
    assert published.games.count() == 2
