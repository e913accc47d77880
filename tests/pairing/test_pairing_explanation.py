"""The pairing page says which engine made the pairing and why (issue 38, point 3): the
round keeps the engine's codes and parameters, the page puts them in the reader's words,
after a reload and once published too; the history entry of the pairing keeps them."""

import re
from html import unescape

import pytest
from django.urls import reverse

from clubs.models import HistoryEntry
from competition.models import Competition, Round, TableSize
from competition.services.rounds import (
    round_clear_pairings,
    round_create,
    round_record_results,
    round_set_status,
)
from games.models import Outcome
from games.services import ResultEntry, ResultInput, ResultKind
from pairing.services import round_pair
from tests.factories import EntrantFactory, PlayerFactory

pytestmark = pytest.mark.django_db

NAMES = ("An", "Bo", "Cas", "Daan", "Eva")


def entered(competition, names=NAMES):
    players = [PlayerFactory(name=name) for name in names]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    return players


def pairing_url(round_obj) -> str:
    return reverse(
        "round_pairing", kwargs={**round_obj.competition.url_kwargs, "number": round_obj.number}
    )


def explanation_on(client, round_obj) -> list[str]:
    page = unescape(client.get(pairing_url(round_obj)).content.decode())
    section = re.search(r'<section [^>]*id="pairing-explanation".*?</section>', page, re.S)
    if section is None:
        return []
    return [
        " ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", section.group(0), re.S)
    ]


def test_a_swiss_first_round_with_a_bye_in_dutch(secretary_client, competition):
    entered(competition)
    round_obj = round_create(competition=competition)
    response = secretary_client.post(
        pairing_url(round_obj), {"action": "generate", "system": "swiss"}
    )
    assert response.status_code == 302
    lines = explanation_on(secretary_client, round_obj)
    assert lines == [
        "Indelingssysteem: Zwitsers; één optimale koppeling van het hele veld: eerst zo weinig "
        "mogelijk herhalingen, dan de kleinste verschillen in wedstrijdpunten en bordpunten.",
        "Niemand speelt opnieuw tegen een eerdere tegenstander.",
        "Vrije ronde: Eva, de laagst geplaatste.",
    ]
    # Kept with the round: the same after publishing.
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED, by=None)
    assert explanation_on(secretary_client, round_obj) == lines


def test_the_same_in_english(secretary_client, english, competition):
    entered(competition)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    assert explanation_on(secretary_client, round_obj) == [
        "System: Swiss; one optimal matching of the whole field: as few repeats as possible "
        "first, then the smallest gaps in match points and board points.",
        "Nobody meets an earlier opponent again.",
        "Bye: Eva, the lowest placed.",
    ]


def test_swiss_says_how_many_repeats_it_avoided(secretary_client, competition):
    # Round 1: An – Bo and Cas – Daan, both drawn (300 – 300, 250 – 250): straight down the
    # standings round 2 would be An – Bo and Cas – Daan again, 2 repeats; Swiss pairs
    # An and Bo each with Cas or Daan, none.
    an, bo, cas, daan = entered(competition, NAMES[:4])
    first = round_create(competition=competition)
    round_pair(round=first, system="koth")
    assert {frozenset(p.pk for p in game.players) for game in first.games.with_seats()} == {
        frozenset((an.pk, bo.pk)),
        frozenset((cas.pk, daan.pk)),
    }
    round_record_results(
        round=first,
        entries=[
            ResultEntry(game_id=game.pk, result=ResultInput.of_pair(ResultKind.NORMAL, s, s))
            for game, s in zip(first.games.order_by("table"), (300, 250), strict=True)
        ],
        by=None,
    )
    second = round_create(competition=competition)
    round_pair(round=second, system="swiss")
    lines = explanation_on(secretary_client, second)
    assert (
        "Recht volgens de stand zouden 2 paren elkaar opnieuw treffen; deze indeling voorkomt dat."
        in lines
    )
    assert "Niemand speelt opnieuw tegen een eerdere tegenstander." in lines
    # The first round's King of the Hill said what it is.
    assert explanation_on(secretary_client, first)[0] == (
        "Indelingssysteem: op de stand (1–2, 3–4); de stand op volgorde, de bovenste eerst; "
        "herhalingen toegestaan."
    )


def test_tables_say_the_schedule_and_the_sizes(secretary_client, competition):
    Competition.objects.filter(pk=competition.pk).update(
        rules=Competition.Rules.STANDARD, table_size=TableSize.THREE
    )
    competition.refresh_from_db()
    entered(competition, ("An", "Bo", "Cas", "Daan", "Eva", "Fien", "Gijs", "Hans", "Ids"))
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="rr")
    assert explanation_on(secretary_client, round_obj) == [
        "Indelingssysteem: iedereen tegen iedereen aan tafels (niemand treft iemand twee keer); "
        "ronde 1 van het schema waarin niemand iemand twee keer treft.",
        "Tafels van 3 + 3 + 3 spelers.",
        "Niemand speelt opnieuw tegen een eerdere tegenstander.",
    ]


def test_the_round_keeps_codes_and_the_history_the_bye_by_name(competition):
    entered(competition)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    eva = round_obj.games.get(outcome=Outcome.BYE).seats.get().player
    stored = Round.objects.get(pk=round_obj.pk).pairing_explanation
    assert stored == [
        {
            "group": "",
            "system": "swiss",
            "method": "optimal_matching",
            "params": {
                "bye_reason": "lowest_placed",
                "bye_to": eva.pk,
                "floaters": 0,
                "repeats_avoided": 0,
                "repeats_left": 0,
            },
        }
    ]
    entry = HistoryEntry.objects.filter(action="pairing.generate").latest("pk")
    assert entry.after["explanation"][0]["params"]["bye_to"] == "Eva"
    # Undone, the round has no pairing and so no explanation.
    round_clear_pairings(round=round_obj)
    assert Round.objects.get(pk=round_obj.pk).pairing_explanation == []


def test_the_history_says_why_in_words(secretary_client, competition):
    entered(competition)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss", by=None)
    page = unescape(
        secretary_client.get(
            reverse("competition_history", kwargs=competition.url_kwargs)
        ).content.decode()
    )
    assert "Vrije ronde: Eva, de laagst geplaatste." in page
    assert "optimal_matching" not in page and "bye_reason" not in page


def test_a_pairing_made_by_hand_explains_nothing(secretary_client, competition):
    from competition.services.rounds import round_set_pairings
    from tests.seats import pair_spec

    an, bo, *_rest = entered(competition, NAMES[:2])
    round_obj = round_create(competition=competition)
    round_set_pairings(round=round_obj, pairings=[pair_spec(an.pk, bo.pk, 1)])
    assert explanation_on(secretary_client, round_obj) == []
