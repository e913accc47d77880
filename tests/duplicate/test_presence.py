"""Presence at a duplicate evening (issue 56 point 1): a player recorded present, absent or
left after a turn, by the spelleider or the jury; the one rule of which turns a player owes
a slip for (`duplicate.ranking.turns_due`) in the rankings, the post-check, the jury room
and the season's counts; the history of every change; input refused in Dutch."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from clubs.models import HistoryEntry
from duplicate.models import Participant, Presence
from duplicate.selectors import evening_results, post_check, season_results
from duplicate.services import DuplicateEveningError
from duplicate.services.evenings import evening_create
from duplicate.services.participants import participant_withdraw
from duplicate.services.presence import presence_set
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from events.models import Event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PRESENT, ABSENT, LEFT = Presence.Status.PRESENT, Presence.Status.ABSENT, Presence.Status.LEFT


@pytest.fixture
def evening(competition, secretary):
    return evening_create(competition=competition, number=1, by=secretary)


@pytest.fixture
def turn(evening, secretary):
    # 8D KAArSEN scores 74 (the top), 8H KAAS 14.
    return turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)


def _participant(player):
    return Participant.objects.get(player=player)


def test_the_rule_in_sql_is_the_rule_of_one_row(evening, four_entrants):
    anna, bert, cor, _dirk = four_entrants
    for player, status, left in ((anna, PRESENT, None), (bert, ABSENT, None), (cor, LEFT, 2)):
        Presence.objects.create(
            evening=evening, participant=_participant(player), status=status, left_after_turn=left
        )
    rows = list(Presence.objects.all())
    for number in (1, 2, 3):
        in_sql = set(Presence.objects.not_present_for(number).values_list("pk", flat=True))
        assert in_sql == {row.pk for row in rows if not row.present_for(number)}, number
    # Cor left after turn 2: there for 1 and 2, not 3; Bert for none; Anna for every one.
    assert [row.present_for(3) for row in rows] == [True, False, False]


def test_a_presence_is_kept_in_the_history_and_odd_input_changes_nothing(
    evening, turn, secretary, four_entrants
):
    anna, bert, *_ = four_entrants
    presence_set(
        evening=evening, participant=_participant(anna), status=ABSENT, reason="Ziek", by=secretary
    )
    # The same again changes nothing and writes no entry.
    presence_set(evening=evening, participant=_participant(anna), status=ABSENT, by=secretary)
    entry = HistoryEntry.objects.get(action="presence.set")
    assert (entry.before, entry.after, entry.reason, entry.by) == (
        None,
        {"presence": "absent", "left_after_turn": None},
        "Ziek",
        secretary,
    )
    assert entry.duplicate_id == evening.competition_id
    refusals = [
        (
            {"status": LEFT, "left_after_turn": 2},
            "Beurt 2 is niet getrokken: kies een beurt van 1 tot 1.",
        ),
        ({"status": LEFT, "left_after_turn": 0}, "een getal vanaf 1"),
        ({"status": LEFT, "left_after_turn": -1}, "een getal vanaf 1"),
        ({"status": LEFT, "left_after_turn": True}, "een getal vanaf 1"),
        ({"status": LEFT, "left_after_turn": "1"}, "een getal vanaf 1"),
        ({"status": LEFT}, "een getal vanaf 1"),
        ({"status": ABSENT, "left_after_turn": 1}, "Alleen een speler die weg is gegaan"),
        ({"status": "weg"}, "Kies aanwezig, afwezig of weg na een beurt."),
        ({"status": ABSENT, "reason": "x" * 201}, "hoogstens 200 tekens"),
        ({"status": ABSENT, "reason": "a\x00b"}, "geen stuurtekens"),
    ]
    for fields, message in refusals:
        with pytest.raises(DuplicateEveningError) as refused:
            presence_set(evening=evening, participant=_participant(anna), by=secretary, **fields)
        assert message in str(refused.value.message), fields
    participant_withdraw(participant=_participant(bert), from_evening=1, by=secretary)
    with pytest.raises(DuplicateEveningError, match="teruggetrokken"):
        presence_set(evening=evening, participant=_participant(bert), status=ABSENT, by=secretary)
    assert list(Presence.objects.values_list("status", "left_after_turn")) == [("absent", None)]
    assert HistoryEntry.objects.filter(action="presence.set").count() == 1


def test_absent_and_left_players_are_out_of_the_ranking_shown_and_counted(
    evening, turn, secretary, four_entrants, competition
):
    anna, bert, cor, dirk = four_entrants
    for player, text in ((anna, "8D KAArSEN"), (bert, "8H KAAS"), (cor, "8H KAAS")):
        slip_submit(turn=turn, player_id=player.pk, text=text, by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    second = turn_choose_top(
        turn=turn_draw(evening=evening, by=secretary, rng=random.Random(7)), by=secretary
    )
    for player in (anna, bert, cor):  # paper slips typed after the top: never late
        slip_submit(turn=second, player_id=player.pk, text=second.top, by=secretary, on_paper=True)
    presence_set(evening=evening, participant=_participant(bert), status=ABSENT, by=secretary)
    presence_set(
        evening=evening,
        participant=_participant(cor),
        status=LEFT,
        left_after_turn=1,
        by=secretary,
    )
    later = evening_create(competition=competition, number=2, by=secretary)
    presence_set(evening=later, participant=_participant(cor), status=ABSENT, by=secretary)

    totals = {row.player_id: row.total for row in evening_results(evening)}
    # Bert is out; Cor's slip of turn 2, after he left, counts nothing: 14 for turn 1.
    top = second.top_score
    assert totals == {anna.pk: 74 + top, cor.pk: 14}
    check = post_check(evening)
    assert (check.absent, check.left) == (["Bert"], [("Cor", 1)])
    not_there = [
        (line.slip.player.name, line.slip.turn.number, line.counted)
        for line in check.corrections
        if "speler niet aanwezig bij deze beurt: telt 0" in line.notes
    ]
    assert not_there == [("Bert", 1, 0), ("Bert", 2, 0), ("Cor", 2, 0)]
    season = {row.player_id: (row.evenings, row.absent) for row in season_results(competition.pk)}
    assert season == {anna.pk: (1, 0), cor.pk: (1, 1)}
    assert dirk.pk not in season


@pytest.fixture
def juror(competition, club):
    event = Event.objects.create(organiser=club, name="Interclub", slug="interclub")
    competition.event = event
    competition.save(update_fields=["event"])
    user = UserFactory(username="jurylid")
    event.jury.add(user)
    return user


def test_the_jury_records_presence_on_its_page_and_odd_input_is_refused_in_dutch(
    client, evening, turn, juror, four_entrants, django_assert_max_num_queries
):
    anna, *_rest = four_entrants
    page = reverse(
        "duplicate_presence", args=[evening.competition.club.slug, evening.competition.slug, 1]
    )
    client.force_login(juror)
    with django_assert_max_num_queries(12):
        html = client.get(page).content.decode()
    assert 'id="presence-form"' in html and "niet vastgelegd" in html
    for fields, message in (
        ({"status": "left", "left_after_turn": "abc"}, "Voer een geheel getal in."),
        ({"status": "left", "left_after_turn": "-1"}, "minstens 1 is"),
        ({"status": "left", "left_after_turn": "99999999999"}, "hoogstens 999 is"),
        ({"status": "left", "left_after_turn": "١"}, "Voer een geheel getal in."),
        ({"status": "left", "left_after_turn": ""}, "Geef de laatste beurt"),
        ({"status": "left", "left_after_turn": "3"}, "Beurt 3 is niet getrokken"),
        ({"status": "weg"}, "Selecteer een geldige keuze"),
    ):
        reply = client.post(page, {"player": str(anna.pk), **fields})
        assert reply.status_code == 200 and message in reply.content.decode(), fields
    assert not Presence.objects.exists()
    saved = client.post(
        page, {"player": str(anna.pk), "status": "left", "left_after_turn": "1"}, follow=True
    )
    assert "Aanwezigheid opgeslagen." in saved.content.decode()
    assert "weg na beurt 1" in saved.content.decode()
    entry = HistoryEntry.objects.get(action="presence.set")
    assert entry.by == juror and entry.after == {"presence": "left", "left_after_turn": 1}
