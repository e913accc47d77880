"""The jury room of a big duplicate evening (issue 43 point 3): jury members type the
paper slips, each slip once (a second typing that differs waits as a conflict for the
spelleider), the missing slips per table, the post-check, and the evening's results
announced (`duplicate.signals.game_complete`) when complete and again when they change
(a correction inside its own transaction)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from clubs.models import HistoryEntry
from duplicate.models import Participant, Slip, SlipConflict
from duplicate.selectors import evening_complete, evening_state, post_check
from duplicate.services.evenings import evening_create
from duplicate.services.jury import jury_slip_type, slip_conflict_resolve
from duplicate.services.presence import presence_set
from duplicate.services.slips import slip_correct, slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from duplicate.signals import game_complete
from events.models import Event
from events.permissions import on_jury
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

#: The first rack, and what it plays: 8D KAArSEN scores 74 (the top), 8H KAAS 14.
RACK = "KAAS?EN"


@pytest.fixture
def event(club):
    return Event.objects.create(organiser=club, name="Interclub Gouda", slug="interclub")


@pytest.fixture
def juror(event):
    user = UserFactory(username="jurylid")
    event.jury.add(user)
    return user


@pytest.fixture
def evening(competition, event, secretary):
    competition.event = event
    competition.save(update_fields=["event"])
    return evening_create(competition=competition, number=1, by=secretary)


@pytest.fixture
def turn(evening, secretary):
    return turn_draw(evening=evening, tiles=RACK, by=secretary)


def url(name, evening):
    competition = evening.competition
    return reverse(name, args=[competition.club.slug, competition.slug, evening.number])


def type_slip(client, evening, player, text, claimed="", turn=1):
    return client.post(
        url("duplicate_jury", evening),
        {"turn": str(turn), "player": str(player.pk), "text": text, "claimed": claimed},
        follow=True,
    )


def test_on_jury_is_the_event_s_jury_only(event, juror, secretary, club):
    other = Event.objects.create(organiser=club, name="Open", slug="open")
    assert on_jury(juror, event.pk)
    assert not on_jury(juror, other.pk)
    assert not on_jury(secretary, event.pk)
    assert not on_jury(juror, None)


def test_the_jury_types_slips_and_nobody_else_enters_the_jury_room(
    client, evening, turn, juror, member, four_entrants
):
    anna, *_ = four_entrants
    room = url("duplicate_jury", evening)
    client.force_login(member)
    assert client.get(room).status_code == 403
    assert (
        client.post(room, {"turn": "1", "player": str(anna.pk), "text": "8H KAAS"}).status_code
        == 403
    )
    client.force_login(juror)
    html = client.get(room).content.decode()
    assert "Anna" in html and "4 beurtbriefjes ontbreken voor beurt 1" in html
    answer = type_slip(client, evening, anna, "8H KAAS", "14").content.decode()
    assert "Beurtbriefje opgeslagen" in answer
    slip = Slip.objects.get()
    assert (slip.player, slip.score, slip.late) == (anna, 14, False)
    assert HistoryEntry.objects.get(action="slip.submit").by == juror
    # The jury of a club's own competition: nobody (it has no event).
    evening.competition.event = None
    evening.competition.save(update_fields=["event"])
    assert client.get(room).status_code == 403


def test_a_second_typing_is_refused_when_the_same_and_waits_as_a_conflict_when_not(
    client, evening, turn, juror, secretary, four_entrants
):
    anna, *_ = four_entrants
    second = UserFactory(username="tweede-jurylid")
    evening.competition.event.jury.add(second)
    client.force_login(juror)
    type_slip(client, evening, anna, "8H KAAS", "14")
    client.force_login(second)
    same = type_slip(client, evening, anna, " 8H  KAAS ", "14").content.decode()
    assert "al binnen, op dezelfde manier getypt" in same
    assert (Slip.objects.count(), SlipConflict.objects.count()) == (1, 0)

    differs = type_slip(client, evening, anna, "8D KAArSEN", "74").content.decode()
    assert "beide typingen wachten op de spelleider" in differs
    slip = Slip.objects.get()
    assert (slip.text, slip.score) == ("8H KAAS", 14)  # the first counts until resolved
    conflict = SlipConflict.objects.get()
    assert (conflict.text, conflict.claimed, conflict.typed_by) == ("8D KAArSEN", 74, second)
    assert HistoryEntry.objects.filter(action="slip.conflict", by=second).count() == 1
    again = type_slip(client, evening, anna, "8D KAArSEN", "74").content.decode()
    assert "wacht al op de spelleider" in again and SlipConflict.objects.count() == 1

    # The jury sees the conflict; only the spelleider resolves it.
    html = client.get(url("duplicate_jury", evening)).content.decode()
    assert "KAArSEN" in html and 'value="resolve"' not in html
    resolve = {"action": "resolve", "conflict": str(conflict.pk), "choice": "take"}
    assert (
        client.post(url("duplicate_jury", evening), {**resolve, "reason": "x"}).status_code == 403
    )
    client.force_login(secretary)
    no_reason = client.post(url("duplicate_jury", evening), {**resolve, "reason": ""})
    assert "Dit veld is verplicht" in no_reason.content.decode()
    assert SlipConflict.objects.get().is_open
    client.post(url("duplicate_jury", evening), {**resolve, "reason": "Briefje nagekeken"})
    slip.refresh_from_db()
    assert (slip.text, slip.claimed, slip.score) == ("8D KAArSEN", 74, 74)
    conflict.refresh_from_db()
    assert (conflict.is_open, conflict.taken) == (False, True)
    resolved = HistoryEntry.objects.get(action="slip.conflict_resolve")
    assert (resolved.by, resolved.reason) == (secretary, "Briefje nagekeken")
    assert HistoryEntry.objects.filter(action="slip.correct", reason="Briefje nagekeken").exists()

    # Kept: the slip stays as it is.
    client.force_login(juror)
    type_slip(client, evening, anna, "8H KAAS", "14")
    kept = SlipConflict.objects.get(resolved_at__isnull=True)
    client.force_login(secretary)
    client.post(
        url("duplicate_jury", evening),
        {"action": "resolve", "conflict": str(kept.pk), "choice": "keep", "reason": "Klopt"},
    )
    slip.refresh_from_db()
    kept.refresh_from_db()
    assert (slip.text, slip.score, kept.taken) == ("8D KAArSEN", 74, False)
    odd = client.post(
        url("duplicate_jury", evening),
        {"action": "resolve", "conflict": "99999", "choice": "take", "reason": "x"},
    )
    assert odd.status_code == 200 and "bestaat niet meer" in odd.content.decode()


def test_the_missing_slips_per_table(client, evening, turn, juror, secretary, four_entrants):
    anna, bert, cor, dirk = four_entrants
    participants = {p.player_id: p for p in Participant.objects.all()}
    client.force_login(secretary)
    page = reverse(
        "duplicate_participants", args=[evening.competition.club.slug, evening.competition.slug]
    )
    for player, table in ((anna, 1), (bert, 1), (cor, 2)):
        client.post(page, {"participant": str(participants[player.pk].pk), "table": str(table)})
    assert Participant.objects.get(player=bert).table == 1
    assert HistoryEntry.objects.filter(action="participant.table").count() == 3
    bad = client.post(
        page, {"participant": str(participants[dirk.pk].pk), "table": "0"}, follow=True
    )
    assert "Een tafel is een getal van 1 tot 999" in bad.content.decode()
    assert Participant.objects.get(player=dirk).table is None

    for player in (anna, cor, dirk):
        slip_submit(turn=turn, player_id=player.pk, text="8H KAAS", claimed=14, by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    second = turn_draw(evening=evening, by=secretary)
    slip_submit(turn=second, player_id=anna.pk, text="-", by=secretary, on_paper=True)

    client.force_login(juror)
    first = client.get(url("duplicate_jury", evening) + "?beurt=1").content.decode()
    assert "1 beurtbriefje ontbreekt voor beurt 1" in first
    assert "Tafel 1</strong> (1/2): Bert" in first
    # Bert has no slip at all this evening and no presence recorded: not come, or none
    # typed yet.
    assert "geen aanwezigheid vastgelegd (niet gekomen, of nog niets getypt): Bert" in first
    html = client.get(url("duplicate_jury", evening)).content.decode()  # the last turn
    assert "3 beurtbriefjes ontbreken voor beurt 2" in html
    assert "Tafel 1</strong> (1/2): Bert" in html and "Tafel 2</strong> (1/1): Cor" in html
    assert "Geen tafel</strong> (1/1): Dirk" in html


def test_the_jury_room_reads_in_a_fixed_number_of_queries(
    client, evening, turn, juror, secretary, four_entrants, django_assert_max_num_queries
):
    client.force_login(juror)
    # 12: the evening's menu asks whether the juror plays that evening (the slip's link);
    # whether the evening is complete asks nothing while its game goes on; the missing
    # slips are one query.
    with django_assert_max_num_queries(12):
        client.get(url("duplicate_jury", evening))
    for player in four_entrants:
        slip_submit(turn=turn, player_id=player.pk, text="8H KAAS", claimed=14, by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    with django_assert_max_num_queries(12):
        client.get(url("duplicate_jury", evening))


def _play_to_the_end(evening, secretary, players, late_player):
    """The evening's master game to its end, the app drawing (the same racks every run):
    every player's slip typed before each top, `late_player`'s after it (a paper slip
    typed afterwards), but not on the last turn. That turn and `late_player`."""
    rng = random.Random(7)
    while True:
        turn = turn_draw(evening=evening, by=secretary, rng=rng)
        for player in players:
            slip_submit(turn=turn, player_id=player.pk, text="-", by=secretary)
        turn_choose_top(turn=turn, by=secretary)
        if evening_state(evening).is_over:
            return turn
        slip_submit(turn=turn, player_id=late_player.pk, text="-", by=secretary, on_paper=True)


def test_the_results_are_announced_when_complete_and_again_when_they_change(
    evening, secretary, four_entrants, django_capture_on_commit_callbacks
):
    anna, bert, cor, _dirk = four_entrants
    heard = []

    def receiver(sender, evening, **kwargs):
        heard.append(evening.pk)

    game_complete.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            last = _play_to_the_end(evening, secretary, [anna, bert], cor)
        # The game has ended; Cor's last slip is not in.
        assert heard == [] and not evening_complete(evening)
        with django_capture_on_commit_callbacks(execute=True):
            # Dirk has no slip at all: he did not come tonight, and does not hold it up.
            cor_slip = slip_submit(
                turn=last, player_id=cor.pk, text="8H KAAS", claimed=14, by=secretary, on_paper=True
            )
        assert heard == [evening.pk] and evening_complete(evening)
        # A correction is announced inside its own transaction (a ranked game published
        # again with it or not at all), not after the commit.
        with django_capture_on_commit_callbacks(execute=False):
            slip_correct(slip=cor_slip, text="-", reason="Verkeerd gelezen", by=secretary)
        assert heard == [evening.pk, evening.pk]
        # Recorded present, Dirk owes a slip for every turn: the evening waits for them
        # (issue 56); recorded absent, it is complete again and announced again. Cor
        # recorded as left after the turn before the last owes no slip for the last.
        dirk = Participant.objects.get(player=_dirk)
        with django_capture_on_commit_callbacks(execute=True):
            presence_set(evening=evening, participant=dirk, status="present", by=secretary)
        assert heard == [evening.pk] * 2 and not evening_complete(evening)
        with django_capture_on_commit_callbacks(execute=True):
            presence_set(evening=evening, participant=dirk, status="absent", by=secretary)
        assert heard == [evening.pk] * 3 and evening_complete(evening)
        with django_capture_on_commit_callbacks(execute=True):
            presence_set(
                evening=evening,
                participant=Participant.objects.get(player=cor),
                status="left",
                left_after_turn=last.number - 1,
                by=secretary,
            )
        assert heard == [evening.pk] * 4 and evening_complete(evening)
    finally:
        game_complete.disconnect(receiver)


def test_an_evening_whose_game_goes_on_is_not_complete(evening, turn, secretary, four_entrants):
    for player in four_entrants:
        slip_submit(turn=turn, player_id=player.pk, text="8H KAAS", by=secretary)
    assert not evening_complete(evening)  # the turn is open
    turn_choose_top(turn=turn, by=secretary)
    assert not evening_complete(evening)  # every slip in, but the game goes on


def test_the_post_check_lists_every_correction_with_its_reason(
    client, evening, turn, secretary, four_entrants, django_assert_max_num_queries
):
    anna, bert, cor, dirk = four_entrants
    slip_submit(turn=turn, player_id=anna.pk, text="8D KAArSEN", claimed=74, by=secretary)
    slip_submit(turn=turn, player_id=bert.pk, text="8H KAAS", claimed=20, by=secretary)
    slip_submit(turn=turn, player_id=cor.pk, text="8H KAAZ", claimed=30, by=secretary)
    turn_choose_top(turn=turn, by=secretary)
    slip_submit(turn=turn, player_id=dirk.pk, text="8H KAAS", claimed=14, by=secretary)
    # 8: whether the evening is complete asks no slip while its game goes on.
    with django_assert_max_num_queries(8):
        html = client.get(url("duplicate_post_check", evening)).content.decode()
    # Bert claimed 20 for 14 (8H KAAS: 5+1+1+2+... as the engine counts it: 14).
    assert "geclaimd 20, scoort 14" in html
    assert "scoort 0:" in html and "KAAZ" in html  # Cor: a Z not on the rack
    assert "te laat: telt 0" in html  # Dirk's slip after the top
    assert "Anna" not in html.split('id="post-check"')[1]  # taken as written
    # Totals: Bert's and Cor's claims differ from their scores, Dirk's late one too.
    assert "3 van de 4 spelers" in html


def test_the_post_check_lists_corrections_and_conflict_resolutions_with_who_and_why(
    client, evening, turn, juror, secretary, four_entrants
):
    anna, bert, cor, _dirk = four_entrants
    turn_choose_top(turn=turn, by=secretary)
    for player in (anna, bert, cor):
        jury_slip_type(turn=turn, player_id=player.pk, text="8H KAAS", claimed=14, by=juror)
    slip_correct(
        slip=Slip.objects.get(player=anna), text="-", claimed=0, reason="Blanco", by=secretary
    )
    taken = jury_slip_type(turn=turn, player_id=bert.pk, text="-", claimed=0, by=juror)
    kept = jury_slip_type(turn=turn, player_id=cor.pk, text="-", claimed=0, by=juror)
    slip_conflict_resolve(conflict=taken, take=True, reason="Tweede lezing klopt", by=secretary)
    slip_conflict_resolve(conflict=kept, take=False, reason="Eerste lezing klopt", by=secretary)
    changes = [
        (c.kind, c.player, c.text_before, c.text_after, c.effect, c.by, c.reason)
        for c in post_check(evening).changes
    ]
    # 8H KAAS scores 14: to "-" (0) is −14 on the total; a slip kept changes nothing.
    assert changes == [
        ("corrected", "Anna", "8H KAAS", "-", -14, "secretaris", "Blanco"),
        ("conflict_taken", "Bert", "8H KAAS", "-", -14, "secretaris", "Tweede lezing klopt"),
        ("conflict_kept", "Cor", "8H KAAS", "8H KAAS", 0, "secretaris", "Eerste lezing klopt"),
    ]
    client.force_login(secretary)
    table = client.get(url("duplicate_post_check", evening)).content.decode()
    table = table.split('id="slip-changes"')[1]
    assert "conflict: tweede invoering genomen" in table and "Tweede lezing klopt" in table
    assert "-14" in table and "Anna" in table


def test_a_typed_slip_costs_the_same_queries_in_a_bigger_room(
    client,
    evening,
    turn,
    juror,
    secretary,
    four_entrants,
    django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):
    """The post, with the completeness check after its commit (a closed turn's slip)."""
    anna, bert, *_ = four_entrants
    client.force_login(juror)
    turn_choose_top(turn=turn, by=secretary)  # typed after the top, as in the room
    fields = {"turn": "1", "text": "8H KAAS", "claimed": "14"}
    with django_assert_max_num_queries(17), django_capture_on_commit_callbacks(execute=True):
        client.post(url("duplicate_jury", evening), {**fields, "player": str(anna.pk)})
    for number in range(20):
        player = PlayerFactory(name=f"Speler {number}")
        Participant.objects.create(competition=evening.competition, player=player, table=number)
    with django_assert_max_num_queries(17), django_capture_on_commit_callbacks(execute=True):
        client.post(url("duplicate_jury", evening), {**fields, "player": str(bert.pk)})
    assert Slip.objects.count() == 2


def test_odd_input_in_the_jury_room_is_refused_cleanly(client, evening, turn, juror, four_entrants):
    client.force_login(juror)
    room = url("duplicate_jury", evening)
    for fields in (
        {"turn": "7", "player": str(four_entrants[0].pk), "text": "8H KAAS"},
        {"turn": "1", "player": "99999", "text": "8H KAAS"},
        {"turn": "1", "player": str(four_entrants[0].pk), "text": "\x00", "claimed": "١"},
        {"action": "resolve", "conflict": "x", "choice": "take", "reason": "r"},
    ):
        assert client.post(room, fields).status_code in (200, 403)
    assert client.get(room + "?beurt=%00").status_code == 200
    assert not Slip.objects.exists()
