"""The person's copy: every model that points to a player or an account is in it (or says
why not), and it is read in a fixed number of queries."""

import json
from datetime import date

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder

from clubs.history import HistoryAction, history_record
from clubs.models import Club, HistoryEntry, Player
from competition.models import Absence, Round
from duplicate.models import Slip
from events.models import Entry, Event, Season
from games.models import Game, Move, Seat
from notifications.kinds import Kind
from notifications.models import Notification
from notifications.services import subscriptions_set
from privacy.export import RELATIONS, personal_data
from ranking.models import RankedEvent, RankedGame, RankedResult
from ranking.publications import publication_create
from tests.factories import UserFactory


def _relations_to_a_person() -> set[tuple[str, str]]:
    people = {Player, get_user_model()}
    return {
        (model._meta.label_lower, field.name)
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if field.is_relation and field.concrete and field.related_model in people
    }


def test_every_relation_to_a_person_is_in_the_copy():
    """A model added with a foreign key to a player or an account fails here until
    privacy.export.RELATIONS says where the copy holds it (and the copy does)."""
    assert _relations_to_a_person() == set(RELATIONS)


def _across_clubs(speler) -> None:
    """The person in an event of a federation, its director and jury, entering a club
    mate, with a ranked result: what the demo club alone does not have."""
    federation = Club.objects.get(slug="ntsv", is_federation=True)  # the demo's federation
    season = Season.objects.create(
        federation=federation,
        name="2026",
        slug="2026",
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )
    event = Event.objects.create(
        organiser=federation, name="Interclub 1", slug="ic1", season=season
    )
    event.directors.add(speler.user)
    event.jury.add(speler.user)
    Entry.objects.create(event=event, player=speler, club=Club.objects.get(slug="gouda"))
    mate = Player.objects.exclude(pk=speler.pk).filter(clubs__slug="gouda")[0]
    Entry.objects.create(event=event, player=mate, entered_by=speler.user)
    ranked = RankedEvent.objects.create(
        season=season, uid=event.uid, event=event, name=event.name, date=date(2026, 3, 1)
    )
    game = RankedGame.objects.create(
        event=ranked, number=1, date=date(2026, 3, 1), winner_points=500, median_points=400
    )
    RankedResult.objects.create(
        game=game, player=speler, name=speler.name, points=450, percentage=90.0
    )
    subscriptions_set(user_id=speler.user.pk, kinds=[Kind.PAIRING_PUBLISHED], language="nl")
    Notification.objects.create(
        user=speler.user,
        kind=Kind.PAIRING_PUBLISHED,
        object_key="round-1",
        club=Club.objects.get(slug="gouda"),
    )
    official = UserFactory(is_staff=True, is_superuser=True)  # the operator may
    publication_create(season=season, by=official, on=date(2026, 6, 1))


def test_the_copy_holds_everything_of_the_person(speler, django_assert_num_queries):
    Absence.objects.create(
        round=Round.objects.filter(competition__entrants__player=speler)[0], player=speler
    )
    _across_clubs(speler)
    # 20, and the authors of the history: the person's own choice of notifications is in it.
    with django_assert_num_queries(21):
        data = personal_data(speler.user)
    json.dumps(data, cls=DjangoJSONEncoder)  # a JSON document
    assert data["format"] == "bordpunt-personal-data" and data["version"] == 1
    assert data["account"]["username"] == "speler"
    assert data["player"]["name"] == speler.name
    assert {m["club"] for m in data["memberships"]} == {"gouda"}
    published = Game.objects.published().filter(seats__player=speler)
    assert sorted(g["id"] for g in data["games"]) == sorted(published.values_list("pk", flat=True))
    assert Seat.objects.filter(player=speler).count() > len(data["games"])  # a draft round
    moves = Move.objects.filter(game__in=published).count()
    assert moves and sum(len(g["moves"]) for g in data["games"]) == moves
    assert len(data["slips"]) == Slip.objects.filter(player=speler).count() > 0
    assert len(data["competitions"]) == speler.entries.count() > 0
    assert len(data["duplicates"]) == speler.duplicate_participations.count() > 0
    about = HistoryEntry.objects.filter(object_type="player", object_id=speler.pk).count()
    assert about and len(data["history"]) >= about
    (choice,) = [h for h in data["history"] if h["action"] == "player.notifications"]
    assert choice["by_you"] and choice["after"] == {"notifications": ["pairing_published"]}
    for key in set(RELATIONS.values()) - {None}:
        assert data[key], key


def test_the_query_count_does_not_grow_with_the_data(speler, django_assert_max_num_queries):
    """At most the same 21 queries for a person without games as for one with many."""
    user = UserFactory(username="nieuw")
    Player.objects.create(name="Nieuw", user=user)
    with django_assert_max_num_queries(21):
        data = personal_data(user)
    assert data["games"] == [] and data["account"]["username"] == "nieuw"


MARK = "issue 51"


def test_the_copy_names_people_never_their_accounts(speler, django_assert_num_queries):
    """Another person is named by their player's name: a signed-up secretary's username is
    their e-mail address, and the copy holds no one's account or address but the person's."""
    gouda = Club.objects.get(slug="gouda")
    sara = UserFactory(username="sara@example.org", email="sara@example.org")
    Player.objects.create(name="Sara Secretaris", user=sara)
    staff = UserFactory(username="beheer@example.org", email="beheer@example.org", is_staff=True)
    mate = Player.objects.exclude(pk=speler.pk).filter(clubs=gouda)[0]

    def record(by, action, **fields):
        fields.setdefault("object_type", "player")
        history_record(club_id=gouda.pk, by=by, action=action, reason=MARK, **fields)

    about_speler = {"object_id": speler.pk, "label": speler.name}
    record(
        sara,
        HistoryAction.PLAYER_CHANGE,
        before={"rating": 1500},
        after={"rating": 1600},
        **about_speler,
    )
    record(
        staff,
        HistoryAction.PLAYER_CHANGE,
        before={"rating": 1600},
        after={"rating": 1650},
        **about_speler,
    )
    # The person's own address, old and new, on their own player.
    record(
        speler.user,
        HistoryAction.ACCOUNT_EMAIL,
        before={"email": "oud@example.org"},
        after={"email": "nieuw@example.org"},
        **about_speler,
    )
    # What the person did, naming others' accounts: as a secretary, an invitation mailed to
    # a club mate; as an event's director, its directors chosen.
    record(
        speler.user,
        HistoryAction.PLAYER_INVITE_MAIL,
        object_id=mate.pk,
        label=mate.name,
        after={"email": "maat@example.org"},
    )
    record(
        speler.user,
        HistoryAction.EVENT_DIRECTORS,
        object_type="event",
        before={"directors": ["beheer@example.org"]},
        after={"directors": ["sara@example.org", "speler"]},
    )

    with django_assert_num_queries(21):  # the players of the accounts named: one more
        data = personal_data(speler.user)
    text = json.dumps(data, cls=DjangoJSONEncoder)
    for account in ("sara@example.org", "beheer@example.org", "maat@example.org"):
        assert account not in text
    assert "oud@example.org" in text and "nieuw@example.org" in text
    others = set(
        get_user_model().objects.exclude(pk=speler.user_id).values_list("username", flat=True)
    )
    assert not others & {entry["by"] for entry in data["history"]}
    mine = [entry for entry in data["history"] if entry["reason"] == MARK]
    assert [(entry["action"], entry["by"], entry["by_you"]) for entry in mine] == [
        (HistoryAction.PLAYER_CHANGE, "Sara Secretaris", False),
        (HistoryAction.PLAYER_CHANGE, None, False),  # staff without a player: no one to name
        (HistoryAction.ACCOUNT_EMAIL, speler.name, True),
        (HistoryAction.PLAYER_INVITE_MAIL, speler.name, True),
        (HistoryAction.EVENT_DIRECTORS, speler.name, True),
    ]
    assert mine[2]["before"] == {"email": "oud@example.org"}  # their own, as it was
    assert mine[3]["after"] == {"email": None}
    assert mine[4]["before"] == {"directors": [None]}  # staff: no player to name
    assert mine[4]["after"] == {"directors": ["Sara Secretaris", "speler"]}
