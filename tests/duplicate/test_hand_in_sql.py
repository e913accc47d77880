"""`duplicate.hand_in_sql` reads what the ORM reads: every field of every instance, on
SQLite and PostgreSQL alike, for each kind of visitor of a slip page."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club
from duplicate import hand_in_sql
from duplicate.models import DuplicateCompetition, Participant
from duplicate.selectors import evening_and_participation
from duplicate.services.evenings import evening_create
from duplicate.services.participants import participant_withdraw
from duplicate.services.turns import turn_choose_top, turn_draw
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def fields(instance):
    """Every concrete field's value, as the database gave it back."""
    if instance is None:
        return None
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def both(evening, user):
    """The SQL module's answer and the ORM selector's, field by field."""
    competition = evening.competition
    keys = {
        "club_slug": competition.club.slug,
        "competition_slug": competition.slug,
        "number": evening.number,
    }
    with CaptureQueriesContext(connection) as queries:
        found = hand_in_sql.evening_and_entry(**keys, user_id=user.pk)
    assert len(queries) == 1
    expected_evening, expected_entry = evening_and_participation(**keys, user=user)
    read_evening, read_entry = found
    assert fields(read_evening) == fields(expected_evening)
    assert fields(read_evening.competition) == fields(expected_evening.competition)
    assert fields(read_evening.competition.club) == fields(expected_evening.competition.club)
    assert fields(read_entry) == fields(expected_entry)
    if expected_entry is not None:
        assert fields(read_entry.player) == fields(expected_entry.player)
        assert read_entry.competition is read_evening.competition
    return read_entry


@pytest.fixture
def evening(club, secretary):
    competition = DuplicateCompetition.objects.create(
        club=club,
        name="Duplicate",
        slug="duplicate",
        start_date=datetime.date(2026, 9, 1),
        best_evenings=5,
    )
    # A neighbour with the same number in the same club, and a club with the same short
    # name of competition: the joins must pick this evening's.
    other = DuplicateCompetition.objects.create(club=club, name="Other", slug="other")
    evening_create(competition=other, number=1, by=secretary)
    elsewhere = Club.objects.create(name="Elders", slug="elders")
    evening_create(
        competition=DuplicateCompetition.objects.create(
            club=elsewhere, name="Duplicate", slug="duplicate"
        ),
        number=1,
        by=None,
    )
    return evening_create(
        competition=competition, number=1, by=secretary, draw_rules={"leftovers": "keep"}
    )


def test_an_entered_player_gets_the_evening_and_the_entry(evening):
    player = PlayerFactory(user=UserFactory())
    Participant.objects.create(competition=evening.competition, player=player)
    assert both(evening, player.user).player_id == player.pk


def test_a_withdrawn_player_is_read_with_the_withdrawal(evening, secretary):
    player = PlayerFactory(user=UserFactory())
    entry = Participant.objects.create(competition=evening.competition, player=player)
    participant_withdraw(participant=entry, from_evening=1, by=secretary)
    read = both(evening, player.user)
    assert read.withdrawn_from_evening == 1 and not read.plays_in(1)


def test_a_player_of_another_competition_a_user_without_a_player_and_a_visitor(evening):
    player = PlayerFactory(user=UserFactory())
    other = DuplicateCompetition.objects.get(slug="other")
    Participant.objects.create(competition=other, player=player)
    assert both(evening, player.user) is None
    assert both(evening, UserFactory()) is None
    assert both(evening, AnonymousUser()) is None


def test_no_such_evening():
    for keys in (
        {"club_slug": "elders", "competition_slug": "duplicate", "number": 2},
        {"club_slug": "nowhere", "competition_slug": "duplicate", "number": 1},
    ):
        assert hand_in_sql.evening_and_entry(**keys, user_id=None) is None


def test_the_turns_as_the_orm_reads_them(evening, secretary):
    turn_choose_top(turn=turn_draw(evening=evening, tiles="KAAS?EN", by=secretary), by=secretary)
    turn_draw(evening=evening, tiles="DEERNIS", by=secretary)
    with CaptureQueriesContext(connection) as queries:
        read = hand_in_sql.turns_of(evening)
    assert len(queries) == 1
    expected = list(evening.turns.order_by("number"))
    assert [fields(turn) for turn in read] == [fields(turn) for turn in expected]
    assert [turn.number for turn in read] == [1, 2] and read[0].drawn_at is not None
    assert all(turn.evening is evening for turn in read)


def test_the_turn_held_as_the_orm_holds_it(evening, secretary):
    from django.db import transaction

    from clubs.locks import row_lock
    from duplicate.models import Turn

    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            held = hand_in_sql.turn_held(turn)
        expected = row_lock(Turn.objects.filter(pk=turn.pk)).get()
    assert fields(held) == fields(expected) and held.evening is turn.evening
    # One query, holding the row where the database can (PostgreSQL), as row_lock does.
    assert len(queries) == 1
    locks = connection.features.has_select_for_no_key_update
    assert ("FOR NO KEY UPDATE OF" in queries[0]["sql"]) == locks
    with transaction.atomic(), pytest.raises(Turn.DoesNotExist):
        hand_in_sql.turn_held(Turn(pk=turn.pk + 1000, evening=evening))


@pytest.mark.django_db(transaction=True)
def test_the_turn_is_held_only_inside_a_transaction(club, secretary):
    from duplicate.models import Turn

    competition = DuplicateCompetition.objects.create(club=club, name="D", slug="d")
    evening = evening_create(competition=competition, number=1, by=secretary)
    turn = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    with pytest.raises(RuntimeError):
        hand_in_sql.turn_held(turn)  # outside a transaction it would hold nothing
    assert Turn.objects.get().rack == "AAEKNS?"
