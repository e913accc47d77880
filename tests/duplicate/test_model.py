"""A duplicate competition is its own model (issue 39 point 2): only its own settings, no
pairing by construction, withdrawn players out of the rankings, the short name shared
with the club's paired competitions, and existing ones carried over by the migrations."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from competition.models import Competition
from competition.services import CompetitionError
from competition.services.competitions import competition_create, competition_update
from duplicate import selectors
from duplicate.models import DuplicateCompetition, Participant
from duplicate.services.competitions import duplicate_create
from duplicate.services.evenings import evening_create
from duplicate.services.participants import participant_withdraw
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from tests.factories import CompetitionFactory, competition_form_data


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("evening", "playing"),
    [
        (1, {"Anna", "Cor", "Dirk"}),  # Bert withdrew from evening 1 on
        (2, {"Anna", "Dirk"}),  # Cor from 2 on
        (3, {"Anna"}),  # Dirk from 3 on
        (4, {"Anna"}),  # Anna never withdrew
    ],
)
def test_who_plays_an_evening_is_one_rule_of_a_row_and_of_the_rows(
    competition, four_entrants, evening, playing
):
    """Withdrawn from evening N: plays the evenings before N only. `Participant.plays_in`
    (one row, in Python) and `Participant.objects.playing_in` / `withdrawn_in` (the rows,
    in SQL) say the same of every participant."""
    for player, withdrawn in zip(four_entrants, (None, 1, 2, 3), strict=True):
        Participant.objects.filter(competition=competition, player=player).update(
            withdrawn_from_evening=withdrawn
        )
    rows = Participant.objects.filter(competition=competition)
    names = {p.pk: p.player.name for p in rows.select_related("player")}
    by_row = {p.pk for p in rows if p.plays_in(evening)}
    assert {names[pk] for pk in by_row} == playing
    assert set(rows.playing_in(evening).values_list("pk", flat=True)) == by_row
    assert set(rows.withdrawn_in(evening).values_list("pk", flat=True)) == set(names) - by_row


@pytest.mark.django_db
def test_a_withdrawn_player_is_out_of_the_rankings_from_that_evening(
    competition, secretary, four_entrants
):
    anna, bert, *_ = four_entrants
    scores = {}
    for number in (1, 2):
        evening = evening_create(competition=competition, number=number, by=secretary)
        turn = turn_draw(evening=evening, tiles="KAASEIN", by=secretary)
        for player in (anna, bert):
            slip_submit(turn=turn, player_id=player.pk, text="8H KAAS", by=secretary)
        turn_choose_top(turn=turn, by=secretary)
        scores[number] = evening
    participant = Participant.objects.get(competition=competition, player=bert)
    participant_withdraw(participant=participant, from_evening=2, by=secretary)

    assert {row.player_id for row in selectors.evening_results(scores[1])} == {anna.pk, bert.pk}
    assert {row.player_id for row in selectors.evening_results(scores[2])} == {anna.pk}
    season = {row.player_id: row for row in selectors.season_results(competition.pk)}
    assert season[bert.pk].evenings == 1 and season[anna.pk].evenings == 2
    # And no slip from that evening on.
    evening3 = evening_create(competition=competition, number=3, by=secretary)
    turn = turn_draw(evening=evening3, tiles="KAASEIN", by=secretary)
    with pytest.raises(CompetitionError):
        slip_submit(turn=turn, player_id=bert.pk, text="8H KAAS", by=secretary)
    entry = HistoryEntry.objects.get(action="participant.withdraw")
    assert entry.duplicate_id == competition.pk and entry.competition_id is None


@pytest.mark.django_db
def test_the_short_name_is_shared_with_the_clubs_paired_competitions(club, secretary):
    CompetitionFactory(club=club, slug="liga")
    with pytest.raises(CompetitionError):
        duplicate_create(club=club, settings={"name": "D", "slug": "liga"}, by=secretary)
    made = duplicate_create(club=club, settings={"name": "D", "slug": "dup"}, by=secretary)
    assert made.rules == "standard" and made.settings == {}  # the NTSV preset
    with pytest.raises(CompetitionError):
        competition_create(club=club, settings={"name": "Nieuw", "slug": "dup"})
    paired = Competition.objects.get(slug="liga")
    with pytest.raises(CompetitionError):
        competition_update(competition=paired, settings={"slug": "dup"})


@pytest.mark.django_db
def test_the_paired_competition_form_has_no_duplicate_kind(secretary_client, club):
    url = reverse("competition_create", kwargs={"club": club.slug})
    response = secretary_client.post(url, competition_form_data(kind="duplicate"))
    assert response.status_code == 200
    assert not Competition.objects.filter(club=club).exists()


@pytest.mark.django_db
def test_the_duplicate_form_takes_only_a_master_games_rules(secretary_client, club):
    url = reverse("duplicate_create", kwargs={"club": club.slug})
    data = {"name": "Duplicaat", "slug": "duplicaat"}
    assert secretary_client.post(url, {**data, "rules": "gouds8"}).status_code == 200
    assert not DuplicateCompetition.objects.exists()
    response = secretary_client.post(url, {**data, "rules": "sbnl"})
    assert response.status_code == 302
    made = DuplicateCompetition.objects.get(club=club)
    assert made.rules == "sbnl"
    assert HistoryEntry.objects.get(action="duplicate.create").duplicate_id == made.pk
    club_page = secretary_client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Duplicaat" in club_page


@pytest.mark.django_db
def test_pair_does_not_know_a_duplicate_competition(competition):
    with pytest.raises(CommandError):
        call_command("pair", competition.slug, stdout=StringIO())


@pytest.mark.django_db
def test_the_participants_and_settings_pages(secretary_client, competition, four_entrants):
    args = [competition.club.slug, competition.slug]
    html = secretary_client.get(reverse("duplicate_participants", args=args)).content.decode()
    assert "Anna" in html
    participant = Participant.objects.get(competition=competition, player=four_entrants[0])
    secretary_client.post(
        reverse("duplicate_participants", args=args),
        {"participant": participant.pk, "from_evening": "2"},
    )
    participant.refresh_from_db()
    assert participant.withdrawn_from_evening == 2
    secretary_client.post(
        reverse("duplicate_participants", args=args),
        {"participant": participant.pk, "from_evening": "", "reinstate": "1"},
    )
    participant.refresh_from_db()
    assert participant.withdrawn_from_evening is None
    response = secretary_client.post(
        reverse("duplicate_settings", args=args),
        {"name": "Duplicaat", "slug": competition.slug, "rules": "standard"},
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.name == "Duplicaat"
    history = secretary_client.get(reverse("duplicate_history", args=args)).content.decode()
    assert "Duplicaat" in history


# -------------------------------------------------------------------- the migration


def _leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def held_back(held: dict[str, str]) -> list[tuple[str, str | None]]:
    """Migration targets with the `held` apps at those migrations and every other app at
    its last migration that needs nothing of them beyond (None: none of it), so that an
    app added later, which depends on a newer migration of theirs, cannot make the plan
    go both ways."""
    graph = MigrationExecutor(connection).loader.graph
    allowed = {node for app, name in held.items() for node in graph.forwards_plan((app, name))}

    def fits(node) -> bool:
        return all(n[0] not in held or n in allowed for n in graph.forwards_plan(node))

    targets: list[tuple[str, str | None]] = list(held.items())
    for leaf in graph.leaf_nodes():
        if leaf[0] in held:
            continue
        own = [n for n in graph.forwards_plan(leaf) if n[0] == leaf[0]]
        fitting = [n for n in own if fits(n)]
        targets.append(fitting[-1] if fitting else (leaf[0], None))
    return targets


def _before():
    return held_back(
        {"duplicate": "0003_duplicate_competition", "competition": "0011_round_pairing_explanation"}
    )


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_carries_duplicate_competitions_over_with_nothing_lost():
    now = datetime.datetime(2026, 3, 1, 20, tzinfo=datetime.UTC)
    old = migrate(_before())
    try:
        club = old.get_model("clubs", "Club").objects.create(name="Gouda", slug="gouda")
        Player = old.get_model("clubs", "Player")
        anna, bert = (Player.objects.create(name=name) for name in ("Anna", "Bert"))
        Competition_ = old.get_model("competition", "Competition")
        paired = Competition_.objects.create(club=club, name="Liga", slug="liga", changed_at=now)
        dup = Competition_.objects.create(
            club=club,
            name="Duplicaat",
            slug="dup",
            kind="duplicate",
            rules="sbnl",
            start_date=datetime.date(2026, 1, 5),
            think_seconds=150,
            best_evenings=3,
            changed_at=now,
        )
        Competition_.objects.filter(pk=dup.pk).update(created_at=now, changed_at=now)
        Entrant = old.get_model("competition", "Entrant")
        Entrant.objects.create(competition=dup, player=anna)
        Entrant.objects.create(competition=dup, player=bert, withdrawn_from_round=2)
        Round = old.get_model("competition", "Round")
        Round.objects.create(competition=dup, number=1)  # paired by mistake, no results
        Evening = old.get_model("duplicate", "Evening")
        Turn = old.get_model("duplicate", "Turn")
        Slip = old.get_model("duplicate", "Slip")
        for number in (1, 2):
            evening = Evening.objects.create(competition_id=dup.pk, number=number)
            turn = Turn.objects.create(
                evening=evening,
                number=1,
                drawn="KAASEIN",
                rack="KAASEIN",
                top="8H KAAS",
                top_score=14,
                total=14,
            )
            Slip.objects.create(turn=turn, player=anna, text="8H KAAS", score=14, is_top=True)
        History = old.get_model("clubs", "HistoryEntry")
        for kind, competition_id in (
            ("competition", dup.pk),
            ("duplicate_slip", dup.pk),
            ("competition", paired.pk),
        ):
            History.objects.create(
                club=club,
                at=now,
                action="x",
                object_type=kind,
                object_id=competition_id,
                competition_id=competition_id,
            )
    finally:
        new = migrate(_leaves())

    made = new.get_model("duplicate", "DuplicateCompetition").objects.get()
    assert made.pk == dup.pk
    assert (made.name, made.slug, made.rules, made.settings, made.best_evenings) == (
        "Duplicaat",
        "dup",
        "sbnl",
        {"preset": "ntsv", "slips": {"turn_seconds": 150}},  # duplicate/0008
        3,
    )
    assert (made.start_date, made.created_at, made.changed_at) == (
        datetime.date(2026, 1, 5),
        now,
        now,
    )
    participants = new.get_model("duplicate", "Participant").objects.filter(competition=made)
    assert sorted((p.player.name, p.withdrawn_from_evening) for p in participants) == [
        ("Anna", None),
        ("Bert", 2),
    ]
    evenings = new.get_model("duplicate", "Evening").objects.filter(competition=made)
    assert evenings.count() == 2
    assert (
        new.get_model("duplicate", "Slip").objects.filter(turn__evening__in=evenings).count() == 2
    )
    left = new.get_model("competition", "Competition").objects.all()
    assert [c.slug for c in left] == ["liga"]
    assert not new.get_model("competition", "Round").objects.exists()
    History = new.get_model("clubs", "HistoryEntry")
    assert History.objects.filter(duplicate_id=made.pk, competition_id=None).count() == 2
    assert History.objects.filter(duplicate_id=made.pk, object_type="duplicate").count() == 1
    assert History.objects.filter(competition_id=paired.pk).count() == 1


def test_archiving_and_entering_take_a_choice_posted_as_shown_changes_nothing(
    secretary_client, competition, member
):
    """The archive button asks for the confirmation, the enter form for a player: pressed
    without them (or a page sent again) they archive and enter nothing."""
    args = [competition.club.slug, competition.slug]
    settings = reverse("duplicate_settings", args=args)
    response = secretary_client.post(settings, {"archive": "1"})
    assert response.status_code == 200
    competition.refresh_from_db()
    assert competition.archived_at is None
    participants = reverse("duplicate_participants", args=args)
    entered = Participant.objects.filter(competition=competition).count()
    assert secretary_client.post(participants, {"player": ""}).status_code == 200
    assert Participant.objects.filter(competition=competition).count() == entered
    player = member.player
    secretary_client.post(participants, {"player": player.pk})
    assert Participant.objects.filter(competition=competition, player=player).exists()
    response = secretary_client.post(
        settings, {"archive": "1", "confirm": "on", "reason": "Seizoen voorbij"}
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.archived_at is not None
    entry = HistoryEntry.objects.get(action=HistoryAction.DUPLICATE_ARCHIVE)
    assert (entry.duplicate_id, entry.reason) == (competition.pk, "Seizoen voorbij")
