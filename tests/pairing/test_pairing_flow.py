"""The director's flow on top of the pure engines: generate from the standings, review,
swap, publish, undo; the `pair` command; the printable list."""

import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from clubs.models import Player
from competition.models import Competition, Round
from competition.services import CompetitionError
from competition.services.entrants import entrant_add, entrant_withdraw
from competition.services.rounds import (
    pairing_version,
    round_clear_pairings,
    round_create,
    round_record_results,
    round_set_attendance,
    round_set_status,
    round_swap_players,
)
from games.models import Game, Outcome
from games.services import ResultEntry, ResultInput, ResultKind
from pairing.services import default_standings_round, round_pair
from tests.factories import EntrantFactory, GroupFactory, PlayerFactory


@pytest.fixture(autouse=True)
def english_messages():
    """The services speak Dutch by default; these tests read their English texts."""
    with translation.override("en"):
        yield


@pytest.fixture
def six(competition):
    players = [PlayerFactory(name=name) for name in ["An", "Bo", "Cas", "Daan", "Eva", "Fien"]]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    return players


def seated(round_obj) -> list[int]:
    ids = []
    for game in round_obj.games.with_seats():
        ids += [player.pk for player in game.players]
    return ids


def play_round(round_obj, *, winner_first=True):
    entries = [
        ResultEntry(
            game_id=game.pk,
            result=ResultInput.of_pair(
                kind=ResultKind.NORMAL,
                score_a=300 if winner_first else 200,
                score_b=200 if winner_first else 300,
            ),
        )
        for game in round_obj.games.exclude(outcome=Outcome.BYE)
    ]
    round_record_results(round=round_obj, entries=entries, by=None)


def pairs_of(round_obj) -> set[frozenset[int]]:
    return {
        frozenset((game.players[0].pk, game.players[1].pk))
        for game in round_obj.games.exclude(outcome=Outcome.BYE)
    }


def test_swiss_rounds_pair_everyone_present_once_without_repeats(competition, six):
    earlier = set()
    for _number in range(1, 4):
        round_obj = round_create(competition=competition)
        round_pair(round=round_obj, system="swiss")
        assert sorted(seated(round_obj)) == sorted(p.pk for p in six)
        assert not pairs_of(round_obj) & earlier, "a repeat while avoidable"
        earlier |= pairs_of(round_obj)
        play_round(round_obj)
        assert Round.objects.get(pk=round_obj.pk).status == Round.Status.FINISHED


def test_absent_players_get_no_game_and_an_odd_field_has_one_bye(competition, six):
    round_obj = round_create(competition=competition)
    absent = six[0]
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in six[1:]])
    round_pair(round=round_obj, system="swiss")
    assert absent.pk not in seated(round_obj)
    byes = round_obj.games.filter(outcome=Outcome.BYE)
    assert byes.count() == 1
    assert sorted(seated(round_obj)) == sorted(p.pk for p in six[1:])


def test_withdrawn_and_late_players(competition, six):
    first = round_create(competition=competition)
    round_pair(round=first, system="swiss")
    play_round(first)
    late = PlayerFactory(name="Laat")
    entrant_add(competition=competition, player=late, joined_round=2)
    entrant_withdraw(entrant=competition.entrants.get(player=six[5]), from_round=2)
    second = round_create(competition=competition)
    round_pair(round=second, system="swiss")
    assert late.pk in seated(second)
    assert six[5].pk not in seated(second)


def test_standings_after_n_minus_2_while_the_last_round_is_played(competition, six):
    first = round_create(competition=competition)
    round_pair(round=first, system="swiss")
    play_round(first)
    second = round_create(competition=competition)
    round_pair(round=second, system="swiss")
    third = round_create(competition=competition)
    # Round 2 is still being played: round 3 is paired from the standings after round 1.
    assert default_standings_round(third) == 1
    round_pair(round=third, system="swiss")
    assert not pairs_of(third) & (pairs_of(first) | pairs_of(second))
    play_round(second)
    assert default_standings_round(third) == 2


def test_a_round_with_results_is_not_paired_again(competition, six):
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    play_round(round_obj)
    before = pairs_of(round_obj)
    with pytest.raises(CompetitionError, match="already has results"):
        round_pair(round=round_obj, system="random", seed=3)
    assert pairs_of(round_obj) == before


def test_swap_two_players_and_the_bye(competition, six):
    round_obj = round_create(competition=competition)
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in six[:5]])
    round_pair(round=round_obj, system="random", seed=1)
    games = list(round_obj.games.exclude(outcome=Outcome.BYE).with_seats().order_by("table"))
    x, y = games[0].players[0].pk, games[1].players[1].pk
    round_swap_players(round=round_obj, player_x=x, player_y=y)
    after = pairs_of(round_obj)
    assert frozenset((y, games[0].players[1].pk)) in after
    assert frozenset((games[1].players[0].pk, x)) in after
    bye = round_obj.games.get(outcome=Outcome.BYE).players[0].pk
    round_swap_players(round=round_obj, player_x=bye, player_y=x)
    assert round_obj.games.get(outcome=Outcome.BYE).players == [Player.objects.get(pk=x)]
    assert sorted(seated(round_obj)) == sorted(p.pk for p in six[:5])


def test_swapping_partners_or_a_played_game_is_refused(competition, six):
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    game = round_obj.games.exclude(outcome=Outcome.BYE).first()
    with pytest.raises(CompetitionError, match="already play each other"):
        round_swap_players(
            round=round_obj, player_x=game.players[0].pk, player_y=game.players[1].pk
        )
    play_round(round_obj)
    other = round_obj.games.exclude(pk=game.pk).exclude(outcome=Outcome.BYE).first()
    with pytest.raises(CompetitionError, match="result"):
        round_swap_players(
            round=round_obj, player_x=game.players[0].pk, player_y=other.players[0].pk
        )


def test_undo_the_pairing_of_an_unplayed_round(competition, six):
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    round_clear_pairings(round=round_obj)
    assert not round_obj.games.exists()


def test_groups_are_paired_apart(competition):
    north, south = (
        GroupFactory(competition=competition, name="A"),
        GroupFactory(competition=competition, name="B"),
    )
    members = {}
    for group in (north, south):
        members[group.name] = []
        for index in range(4):
            player = PlayerFactory(name=f"{group.name}{index}")
            EntrantFactory(competition=competition, player=player, group=group)
            members[group.name].append(player.pk)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    for pair in pairs_of(round_obj):
        assert pair <= set(members["A"]) or pair <= set(members["B"])
    tables = sorted(round_obj.games.values_list("table", flat=True))
    assert tables == [1, 2, 3, 4]


def test_round_robin_meets_everyone_once(competition, six):
    Competition.objects.filter(pk=competition.pk).update(pairing_system="rr")
    competition.refresh_from_db()
    met = []
    for _number in range(5):
        round_obj = round_create(competition=competition)
        round_pair(round=round_obj)
        met += list(pairs_of(round_obj))
        play_round(round_obj)
    assert len(met) == len(set(met)) == 15


def test_a_random_competition_pairs_with_its_own_system(competition, six):
    """The attendance page's button, the demo and `pair` without --system name no system:
    the competition's own is used, random too (it had no engine name of its own)."""
    Competition.objects.filter(pk=competition.pk).update(pairing_system="random")
    competition.refresh_from_db()
    round_obj = round_create(competition=competition)
    result = round_pair(round=round_obj)
    assert result.system == "random"
    assert sorted(seated(round_obj)) == sorted(p.pk for p in six)


def test_assigned_starters_are_recorded_by_seat(competition, six):
    Competition.objects.filter(pk=competition.pk).update(starters="assigned")
    competition.refresh_from_db()
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    assert set(round_obj.games.values_list("starter", flat=True)) <= {0, 1}
    assert None not in set(round_obj.games.values_list("starter", flat=True))


def test_director_page_shows_gaps_and_marks_repeats(secretary_client, competition, six):
    # Four rounds among six players make a repeat unavoidable in a King of the Hill.
    for _number in range(2):
        round_obj = round_create(competition=competition)
        round_pair(round=round_obj, system="koth")
        play_round(round_obj)
    third = round_create(competition=competition)
    round_pair(round=third, system="koth")
    url = reverse("round_pairing", kwargs={**competition.url_kwargs, "number": third.number})
    page = secretary_client.get(url).content.decode()
    assert page.count('<tr class="table-warning"') >= 1
    assert "repeat" in page.lower() or "herhaling" in page.lower()
    assert 'id="review"' in page


def test_director_flow_through_the_page(secretary_client, competition, six):
    round_obj = round_create(competition=competition)
    url = reverse("round_pairing", kwargs={**competition.url_kwargs, "number": round_obj.number})
    response = secretary_client.post(url, {"action": "generate", "system": "swiss"})
    assert response.status_code == 302
    assert round_obj.games.count() == 3
    game = round_obj.games.with_seats().order_by("table").first()
    other = round_obj.games.with_seats().order_by("table").last()
    secretary_client.post(
        url, {"action": "swap", "player_x": game.players[0].pk, "player_y": other.players[0].pk}
    )
    # (the players as the page showed them: prefetched before the swap)
    assert frozenset((other.players[0].pk, game.players[1].pk)) in pairs_of(round_obj)
    secretary_client.post(url, {"action": "publish"})
    assert Round.objects.get(pk=round_obj.pk).status == Round.Status.PUBLISHED
    play_round(round_obj)
    response = secretary_client.post(url, {"action": "generate", "system": "swiss"}, follow=True)
    assert "already has results" in response.content.decode() or "al uitslagen" in (
        response.content.decode()
    )


def test_the_swap_does_not_start_with_one_player_on_both_sides(secretary_client, competition, six):
    """The second select starts empty; posted as shown, it asks for a player and changes
    nothing (it used to preselect the first player on both sides)."""
    round_obj = round_create(competition=competition)
    url = reverse("round_pairing", kwargs={**competition.url_kwargs, "number": round_obj.number})
    secretary_client.post(url, {"action": "generate", "system": "swiss"})
    before = pairs_of(round_obj)
    page = secretary_client.get(url).content.decode()
    first, second = (
        re.search(rf'<select name="{name}".*?</select>', page, re.S).group(0)
        for name in ("player_x", "player_y")
    )

    def shown(select: str) -> str:
        """The option a browser shows: the one marked selected, else the first."""
        marked = re.search(r'<option value="([^"]*)" selected', select)
        return (marked or re.search(r'<option value="([^"]*)"', select)).group(1)

    shown_first = shown(first)
    assert shown_first != ""
    assert shown(second) == ""
    version = re.search(r'name="pairing" value="([^"]*)"', page).group(1)
    response = secretary_client.post(
        url, {"action": "swap", "pairing": version, "player_x": shown_first, "player_y": ""}
    )
    assert response.status_code == 200
    assert pairs_of(round_obj) == before
    assert 'id="swap-errors"' in response.content.decode()


def shown(round_obj: Round) -> str:
    """The pairing version the round's page shows now."""
    status = Round.objects.get(pk=round_obj.pk).status
    return pairing_version(status, round_obj.games.values_list("pk", flat=True))


def test_the_director_acts_on_the_pairing_the_page_showed(competition, six):
    """A swap, an undo or a publish made on a page that shows an older pairing (another
    device generated again meanwhile) is refused and changes nothing."""
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss", expected_pairing=shown(round_obj))
    before = shown(round_obj)
    round_pair(round=round_obj, system="random", seed=3, expected_pairing=before)
    now = shown(round_obj)
    assert now != before
    game = round_obj.games.exclude(outcome=Outcome.BYE).first()
    other = round_obj.games.exclude(pk=game.pk).exclude(outcome=Outcome.BYE).first()
    stale = [
        lambda: round_pair(round=round_obj, system="swiss", expected_pairing=before),
        lambda: round_swap_players(
            round=round_obj,
            player_x=game.players[0].pk,
            player_y=other.players[0].pk,
            expected_pairing=before,
        ),
        lambda: round_clear_pairings(round=round_obj, expected_pairing=before),
        lambda: round_set_status(
            round=round_obj, status=Round.Status.PUBLISHED, expected_pairing=before
        ),
    ]
    for action in stale:
        with pytest.raises(CompetitionError, match="changed in the meantime"):
            action()
    assert shown(round_obj) == now
    assert Round.objects.get(pk=round_obj.pk).status == Round.Status.DRAFT
    # Publishing what the page showed works, and a second click publishes nothing new.
    for _click in range(2):
        round_set_status(round=round_obj, status=Round.Status.PUBLISHED, expected_pairing=now)
    assert Round.objects.get(pk=round_obj.pk).status == Round.Status.PUBLISHED


def test_a_change_on_a_page_that_showed_another_status_is_refused_and_says_which(competition, six):
    """The same games, another status: a pairing published (or withdrawn) on another
    device since the page was shown. Generating, swapping or undoing it from the page is
    refused, with what happened, so that a published pairing never goes back to a draft
    behind the back of the director who published it; a second click of the same button
    is not refused."""
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss", expected_pairing=shown(round_obj))
    draft = shown(round_obj)
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED, expected_pairing=draft)
    published = shown(round_obj)
    games = set(round_obj.games.values_list("pk", flat=True))
    game = round_obj.games.exclude(outcome=Outcome.BYE).first()
    other = round_obj.games.exclude(pk=game.pk).exclude(outcome=Outcome.BYE).first()
    on_the_draft = [
        lambda: round_pair(round=round_obj, system="random", seed=3, expected_pairing=draft),
        lambda: round_swap_players(
            round=round_obj,
            player_x=game.players[0].pk,
            player_y=other.players[0].pk,
            expected_pairing=draft,
        ),
        lambda: round_clear_pairings(round=round_obj, expected_pairing=draft),
    ]
    for action in on_the_draft:
        with translation.override("nl"), pytest.raises(CompetitionError) as refusal:
            action()
        assert "De indeling is in de tussentijd gepubliceerd" in str(refusal.value.message)
    assert Round.objects.get(pk=round_obj.pk).status == Round.Status.PUBLISHED
    assert set(round_obj.games.values_list("pk", flat=True)) == games
    # Publishing again from the draft's page is the same click twice: done, nothing new.
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED, expected_pairing=draft)

    round_set_status(round=round_obj, status=Round.Status.DRAFT, expected_pairing=published)
    with translation.override("nl"), pytest.raises(CompetitionError) as refusal:
        round_pair(round=round_obj, system="random", seed=3, expected_pairing=published)
    assert "De indeling is in de tussentijd ingetrokken" in str(refusal.value.message)
    assert set(round_obj.games.values_list("pk", flat=True)) == games
    round_set_status(round=round_obj, status=Round.Status.DRAFT, expected_pairing=published)
    assert Round.objects.get(pk=round_obj.pk).status == Round.Status.DRAFT


def test_the_director_who_lost_is_told_on_the_pairing_page(secretary_client, competition, six):
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss", expected_pairing=shown(round_obj))
    url = reverse("round_pairing", kwargs={**competition.url_kwargs, "number": 1})
    page = secretary_client.get(url).content.decode()
    draft = re.search(r'name="pairing" value="([^"]*)"', page).group(1)
    assert secretary_client.post(url, {"action": "publish", "pairing": draft}).status_code == 302

    with translation.override("nl"):
        response = secretary_client.post(
            url, {"action": "generate", "system": "swiss", "pairing": draft}
        )

    assert response.status_code == 200
    assert "De indeling is in de tussentijd gepubliceerd" in response.content.decode()
    assert Round.objects.get(pk=round_obj.pk).status == Round.Status.PUBLISHED
    # The page now shows the round as it is, so the next click acts on that.
    assert f'value="{shown(round_obj)}"' in response.content.decode()


def test_printable_list_by_table_and_by_name(client, competition, six):
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, system="swiss")
    Round.objects.filter(pk=round_obj.pk).update(status=Round.Status.PUBLISHED)
    page = client.get(
        reverse("round_print", kwargs={**competition.url_kwargs, "number": 1})
    ).content.decode()
    by_name = page[page.index('id="by-name"') :]
    positions = [by_name.index(f"<tr><td>{name}</td>") for name in ["An", "Bo", "Cas", "Daan"]]
    assert positions == sorted(positions)
    assert 'id="by-table"' in page


def run_pair(*args) -> str:
    out = StringIO()
    call_command("pair", *args, stdout=out)
    return out.getvalue()


def test_pair_command_dry_run_json_writes_nothing(competition, six):
    data = json.loads(
        run_pair(f"{competition.club.slug}/{competition.slug}", "--dry-run", "--format", "json")
    )
    assert not Round.objects.filter(competition=competition).exists()
    assert data["bye"] is None
    ids = sorted(p for pair in data["pairs"] for p in (pair["player_a"], pair["player_b"]))
    assert ids == sorted(p.pk for p in six)
    assert all("starter" in pair for pair in data["pairs"])


def test_pair_command_creates_the_round_with_each_system(competition, six):
    for system in ["random", "koth", "rr", "swiss"]:
        output = run_pair(competition.slug, "--system", system)
        assert "Round" in output
        last = competition.rounds.order_by("-number").first()
        assert sorted(seated(last)) == sorted(p.pk for p in six)
        play_round(last)
    assert competition.rounds.count() == 4
    assert Game.objects.filter(round__competition=competition).count() == 12


def test_pair_command_refuses_a_round_with_results(competition, six):
    run_pair(competition.slug)
    play_round(competition.rounds.get(number=1))
    with pytest.raises(CommandError, match="already has results"):
        run_pair(competition.slug, "--round", "1")
