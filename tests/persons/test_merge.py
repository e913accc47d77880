"""Merging two records of one person: every relation to the player moves (walked from
Django's meta, so a relation added later moves too), memberships of one club are joined,
the merge is kept with exactly what moved, and undoing it gives both records back as they
were. Two records in one competition, game or event are refused, and nothing changes."""

from datetime import date

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils.translation import override

from clubs.history import HistoryAction
from clubs.models import Club, HistoryEntry, Membership, Player
from duplicate.models import DuplicateCompetition, Participant
from events.models import Entry, Event, Season
from persons.models import PersonMerge
from persons.services import PersonsError, persons_merge, persons_unmerge, player_relations
from ranking.models import RankedEvent, RankedGame, RankedResult
from tests.factories import (
    AbsenceFactory,
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    UserFactory,
    secretary_of,
)
from tests.test_lock_order import Beside, postgres_only

pytestmark = pytest.mark.django_db


def test_the_walk_finds_every_relation_to_a_player():
    """Every foreign key to `Player` of every model (the tables of many-to-many fields
    included), but the merge's own record: the merge moves what this lists."""
    expected = {
        (model._meta.label_lower, field.name)
        for model in apps.get_models(include_auto_created=True)
        for field in model._meta.get_fields()
        if field.is_relation
        and field.concrete
        and not field.many_to_many
        and field.related_model is Player
        and model is not PersonMerge
    }
    walked = {(field.model._meta.label_lower, field.name) for field in player_relations()}
    assert walked == expected
    assert {"games.seat", "competition.entrant", "events.entry", "clubs.membership"} <= {
        label for label, _name in walked
    }


@pytest.fixture
def two_records(club, other_club):
    """Anna at the club (no number, no account) and her second record, made at the other
    club and entered at the club again, with results of every kind."""
    anna = PlayerFactory(name="Anna de Vries")
    MembershipFactory(club=club, player=anna)
    here = CompetitionFactory(club=club, name="Hier")
    EntrantFactory(competition=here, player=anna)
    GameFactory(round=RoundFactory(competition=here), player_a=anna, played=True)

    account = UserFactory(username="anna")
    second = PlayerFactory(name="anna de vries", federation_number="NL-5", user=account)
    second.rating = 1600
    second.save()
    MembershipFactory(club=club, player=second, member_number="A-9", note="kent Bert")
    MembershipFactory(club=other_club, player=second, member_number="D-1")
    there = CompetitionFactory(club=other_club, name="Daar")
    EntrantFactory(competition=there, player=second)
    round_there = RoundFactory(competition=there)
    GameFactory(round=round_there, player_a=second, played=True)
    AbsenceFactory(round=RoundFactory(competition=there), player=second)
    duplicate = DuplicateCompetition.objects.create(club=other_club, name="Dup", slug="dup")
    Participant.objects.create(competition=duplicate, player=second)
    federation = Club.objects.create(name="NTSV", slug="ntsv", is_federation=True)
    season = Season.objects.create(
        federation=federation, name="2026", slug="2026", start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )  # fmt: skip
    event = Event.objects.create(organiser=federation, name="Interclub 1", slug="ic1")
    Entry.objects.create(event=event, player=second, club=other_club)
    ranked = RankedEvent.objects.create(
        season=season, uid=event.uid, event=event, name=event.name, date=date(2026, 3, 1)
    )
    game = RankedGame.objects.create(
        event=ranked, number=1, date=date(2026, 3, 1), winner_points=500, median_points=400
    )
    RankedResult.objects.create(game=game, player=second, name="anna", points=450, percentage=90)
    return anna, second, event


def snapshot(*players: Player) -> dict:
    """Everything of the records: their fields, and every row that points to either."""
    ids = [player.pk for player in players]
    rows = {
        (field.model._meta.label_lower, field.name): sorted(
            field.model._base_manager.filter(**{f"{field.name}__in": ids}).values_list(
                "pk", field.attname
            )
        )
        for field in player_relations()
    }
    memberships = sorted(
        Membership.objects.filter(player__in=ids).values_list(
            "pk", "club_id", "player_id", "role", "member_number", "note"
        )
    )
    fields = sorted(
        Player.objects.filter(pk__in=ids).values_list(
            "pk", "name", "federation_number", "user_id", "rating"
        )
    )
    return {"rows": rows, "memberships": memberships, "fields": fields}


def test_a_merge_moves_everything_and_its_undo_gives_both_back(
    club, other_club, secretary, two_records
):
    anna, second, _event = two_records
    before = snapshot(anna, second)
    merge = persons_merge(keep=anna, other=second, by=secretary, reason="dubbel ingevoerd")

    # Every row of the second record is the kept one's now; the second has none.
    after = snapshot(anna, second)
    for (label, _name), rows in after["rows"].items():
        assert {owner for _pk, owner in rows} <= {anna.pk}, label
    moved = {row["model"] for row in merge.moved["rows"]}
    assert {"games.seat", "competition.entrant", "competition.absence", "events.entry"} <= moved
    assert {"duplicate.participant", "ranking.rankedresult", "clubs.membership"} <= moved
    # One membership per club: the club's own is kept and takes the details it lacked.
    memberships = {m.club_id: m for m in Membership.objects.filter(player=anna)}
    assert set(memberships) == {club.pk, other_club.pk}
    assert (memberships[club.pk].member_number, memberships[club.pk].note) == ("A-9", "kent Bert")
    assert memberships[other_club.pk].member_number == "D-1"
    assert not Membership.objects.filter(player=second).exists()
    # The kept record takes the number, the account and the start rating it lacked.
    anna.refresh_from_db()
    assert (anna.name, anna.federation_number, anna.user.username, anna.rating) == (
        "Anna de Vries",
        "NL-5",
        "anna",
        1600,
    )
    # The history of both clubs says so, with who and why.
    entries = HistoryEntry.objects.filter(action=HistoryAction.PERSON_MERGE)
    assert {entry.club_id for entry in entries} == {club.pk, other_club.pk}
    assert all(e.by == secretary and e.reason == "dubbel ingevoerd" for e in entries)
    assert entries[0].after == {"name": "Anna de Vries", "rows_moved": merge.moved_rows + 1}

    persons_unmerge(merge=merge, by=secretary, reason="toch twee")
    assert snapshot(anna, second) == before
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == secretary
    undone = HistoryEntry.objects.filter(action=HistoryAction.PERSON_UNMERGE)
    assert {entry.club_id for entry in undone} == {club.pk, other_club.pk}
    with override("en"), pytest.raises(PersonsError, match="undone already"):
        persons_unmerge(merge=merge, by=secretary)
    # Merged again after the undo: the same again.
    persons_merge(keep=anna, other=second, by=None)
    assert not Membership.objects.filter(player=second).exists()


def refused(message: str, **merge) -> None:
    with override("en"), pytest.raises(PersonsError, match=message):
        persons_merge(by=None, **merge)


def test_two_records_in_the_same_competition_game_or_event_are_refused(
    club, other_club, two_records
):
    anna, second, event = two_records
    Entry.objects.create(event=event, player=anna)
    before = snapshot(anna, second)
    refused("same competition, game or event.*Entry: Interclub 1", keep=anna, other=second)
    shared = CompetitionFactory(club=club, name="Samen")
    for player in (anna, second):
        EntrantFactory(competition=shared, player=player)
    GameFactory(round=RoundFactory(competition=shared), player_a=anna, player_b=second)
    with override("en"), pytest.raises(PersonsError) as error:
        persons_merge(keep=anna, other=second, by=None)
    assert "Entrant: Samen" in str(error.value) and "Seat: Samen" in str(error.value)
    Entry.objects.filter(player=anna).delete()
    assert snapshot(anna, second)["fields"] == before["fields"]
    assert not PersonMerge.objects.exists()
    assert not HistoryEntry.objects.filter(action=HistoryAction.PERSON_MERGE).exists()


def test_two_persons_are_refused(club, two_records):
    anna, second, _event = two_records
    refused("itself", keep=anna, other=anna)
    anna.federation_number = "NL-6"
    anna.save()
    refused("different federation numbers", keep=anna, other=second)
    anna.federation_number = None
    anna.user = UserFactory()
    anna.save()
    refused("Both records have an account", keep=anna, other=second)
    anna.user = None
    anna.save()
    third = PlayerFactory(name="Anna")
    persons_merge(keep=third, other=second, by=None)
    refused("already merged", keep=anna, other=second)


def test_who_may_merge(club, other_club, two_records, other_secretary, member, staff):
    anna, _second, _event = two_records
    lone = PlayerFactory(name="Anna de Vries")
    MembershipFactory(club=other_club, player=lone)
    # A secretary of only one of the records' clubs may not; nor a member.
    for user in (other_secretary, member):
        with pytest.raises(PersonsError) as error:
            persons_merge(keep=anna, other=lone, by=user)
        assert error.value.forbidden
    # A federation's official may; and staff.
    official = secretary_of(ClubFactory(name="NTSV-bond", slug="bond", is_federation=True))
    merge = persons_merge(keep=anna, other=lone, by=official)
    persons_unmerge(merge=merge, by=staff)


def merge_page(club) -> str:
    return reverse("persons_merge", kwargs={"club": club.slug})


def test_the_secretary_merges_and_undoes_on_the_page(client, club, secretary, two_records):
    anna, second, _event = two_records
    client.force_login(secretary)
    page = client.get(merge_page(club)).content.decode()
    assert f'value="{anna.pk}"' in page and f'value="{second.pk}"' in page
    done = client.post(
        merge_page(club), {"keep": anna.pk, "other": second.pk, "reason": "dubbel"}, follow=True
    )
    assert "anna de vries is samengevoegd met Anna de Vries." in done.content.decode()
    (merge,) = PersonMerge.objects.all()
    undo = reverse("persons_unmerge", kwargs={"club": club.slug, "merge_id": merge.pk})
    assert f'action="{undo}"' in done.content.decode()
    undone = client.post(undo, {"reason": "vergissing"}, follow=True)
    assert "zijn weer twee spelers" in undone.content.decode()
    assert Membership.objects.filter(player=second).count() == 2


@pytest.mark.parametrize(
    "data",
    [
        {"keep": "abc", "other": "1"},
        {"keep": "9" * 40, "other": "1"},
        {"keep": "", "other": ""},
        {"keep": "-1", "other": "1", "reason": "x" * 600},
    ],
)
def test_odd_input_on_the_merge_page_changes_nothing(client, club, secretary, two_records, data):
    client.force_login(secretary)
    response = client.post(merge_page(club), data)
    assert response.status_code == 200
    assert 'class="invalid-feedback' in response.content.decode()
    assert not PersonMerge.objects.exists()


def test_only_secretaries_reach_the_merge_pages(client, club, member, other_secretary):
    assert client.get(merge_page(club)).status_code == 302  # to the login
    for user in (member, other_secretary):
        client.force_login(user)
        assert client.get(merge_page(club)).status_code == 403


@pytest.fixture
def one_person_twice(club):
    """Two records of one person at the club, each entered in a competition of its own."""
    records = (PlayerFactory(name="Anna"), PlayerFactory(name="Anna"))
    for player in records:
        MembershipFactory(club=club, player=player)
        EntrantFactory(competition=CompetitionFactory(club=club), player=player)
    return records


@pytest.mark.parametrize("way", ["same", "other"])
def test_a_merge_done_already_is_said_so_to_the_secretary(secretary, one_person_twice, way):
    """The second merge of one person, the same way or the other way round: the record is
    merged already, which the secretary who may merge them is told (not a 403: the
    secretary's say over a record does not end because its memberships moved)."""
    anna, second = one_person_twice
    persons_merge(keep=anna, other=second, by=secretary)
    again = {"keep": anna, "other": second} if way == "same" else {"keep": second, "other": anna}
    with override("en"), pytest.raises(PersonsError, match="already merged") as refusal:
        persons_merge(by=secretary, **again)
    assert not refusal.value.forbidden
    assert PersonMerge.objects.count() == 1


def test_a_merge_done_already_is_still_refused_to_a_stranger(
    other_secretary, secretary, one_person_twice
):
    anna, second = one_person_twice
    persons_merge(keep=anna, other=second, by=secretary)
    with pytest.raises(PersonsError) as refusal:
        persons_merge(keep=anna, other=second, by=other_secretary)
    assert refusal.value.forbidden


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("way", ["same", "other"])
def test_two_merges_of_one_pair_at_once_one_is_refused(secretary, one_person_twice, way):
    """Two secretaries' merges of one person at the same moment, the same way or each way
    round: the second waits for the first's locks, then finds the record merged, and says
    so as it would a moment later (not a 403); nothing is merged twice or lost."""
    anna, second = one_person_twice
    again = {"keep": anna, "other": second} if way == "same" else {"keep": second, "other": anna}

    def the_second():
        try:
            with override("nl"):
                persons_merge(by=secretary, **again)
        except PersonsError as error:
            return error
        return None

    beside = Beside(the_second)
    with transaction.atomic():
        persons_merge(keep=anna, other=second, by=secretary)
        beside.start()
        beside.wait_for_a_lock()
    refusal = beside.result()
    assert refusal is not None and not refusal.forbidden
    assert "is al samengevoegd" in str(refusal.message)
    assert PersonMerge.objects.count() == 1
    assert Membership.objects.filter(player=anna).count() == 1
    assert not Membership.objects.filter(player=second).exists()


def test_the_pages_cost_the_same_queries_however_many_members(
    client, club, secretary, django_assert_num_queries
):
    """The merge page (each of its two choices one query, with the clubs; the merges) and
    the member's details: a fixed number of queries, with 3 members or 33, 1 merge or 6."""
    client.force_login(secretary)
    details = reverse(
        "club_membership", kwargs={"club": club.slug, "player_id": secretary.player.pk}
    )

    def grow(count: int) -> None:
        for _ in range(count):
            keep, other = PlayerFactory(), PlayerFactory()
            for player in (keep, other):
                MembershipFactory(club=club, player=player)
            persons_merge(keep=keep, other=other, by=None)
        for _ in range(count * 2):
            MembershipFactory(club=club, player=PlayerFactory())

    grow(1)
    for _size in ("small", "large"):
        cache.clear()  # the club's status, kept 10 s by the middleware, is read each time
        with django_assert_num_queries(13):
            assert client.get(merge_page(club)).status_code == 200
        cache.clear()
        with django_assert_num_queries(6):
            assert client.get(details).status_code == 200
        grow(5)


def test_a_federation_official_finds_the_likely_second_records_of_every_club(
    client, club, other_club
):
    """At the federation's address its official is offered every record whose name
    (case, spaces and accents aside) another record has too, and merges two of them that
    no club shares."""
    federation = ClubFactory(name="NTSV", slug="ntsv", is_federation=True)
    official = secretary_of(federation)
    here, there = PlayerFactory(name="Joke Brands"), PlayerFactory(name="joke  bränds")
    MembershipFactory(club=club, player=here)
    MembershipFactory(club=other_club, player=there)
    alone = PlayerFactory(name="Karel Alleen")
    MembershipFactory(club=club, player=alone)
    client.force_login(official)
    page = client.get(merge_page(federation)).content.decode()
    assert f'value="{here.pk}"' in page and f'value="{there.pk}"' in page
    assert f'value="{alone.pk}"' not in page
    done = client.post(merge_page(federation), {"keep": here.pk, "other": there.pk})
    assert done.status_code == 302
    assert set(Membership.objects.filter(player=here).values_list("club_id", flat=True)) == {
        club.pk,
        other_club.pk,
    }
    # The federation's page lists every merge, and its official undoes it there.
    (merge,) = PersonMerge.objects.all()
    undo = reverse("persons_unmerge", kwargs={"club": federation.slug, "merge_id": merge.pk})
    assert f'action="{undo}"' in client.get(merge_page(federation)).content.decode()
    assert client.post(undo, {"reason": ""}).status_code == 302
    assert Membership.objects.get(player=there).club == other_club
