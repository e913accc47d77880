"""Pairing into tables of 3 and 4 in the app (issue 20): the settings, the services that
pair a round with the tables engines from the stored seats, the director's swap and the
late arrival at a table, the round's own table size, and the standings at tables."""

from collections import Counter
from itertools import combinations

import pytest
from django.utils import translation

from clubs.history import HistoryAction
from clubs.history_display import entry_changes
from clubs.models import HistoryEntry
from competition import selectors
from competition.models import Competition, Round
from competition.services import CompetitionError
from competition.services.competitions import competition_update
from competition.services.rounds import (
    round_create,
    round_record_results,
    round_set_attendance,
    round_set_pairings,
)
from games.models import Game, Outcome
from games.services import PairingSpec, ResultEntry, ResultInput, ResultKind
from pairing.services import (
    round_add_late_player,
    round_pair,
    round_pairing_preview,
    round_swap,
)
from tests.factories import EntrantFactory, PlayerFactory


@pytest.fixture(autouse=True)
def english_messages():
    """The services speak Dutch by default; these tests read their English texts."""
    with translation.override("en"):
        yield


def at_tables(competition, size="fours", **settings) -> Competition:
    """The competition under the standard rules (up to 4 players) at tables of `size`."""
    competition_update(
        competition=competition,
        settings={"rules": "standard", "table_size": size, **settings},
    )
    competition.refresh_from_db()
    return competition


def enter(competition, count: int) -> list:
    players = [PlayerFactory(name=f"Speler {n:02}") for n in range(1, count + 1)]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    return players


def tables_of(round_obj) -> list[tuple[int, ...]]:
    """The round's games (byes included) as their players' ids in seat order."""
    return [
        tuple(player.pk for player in game.players)
        for game in round_obj.games.with_seats().order_by("table", "pk")
    ]


def met(tables) -> Counter:
    return Counter(frozenset(pair) for table in tables for pair in combinations(table, 2))


def play(round_obj, scores_of=None):
    """Every table's result, normal: by default the seats score 400, 300, 200, 100."""
    entries = []
    for game in round_obj.games.with_seats().exclude(outcome=Outcome.BYE):
        count = len(game.seat_list)
        scores = scores_of(game) if scores_of else tuple(400 - 100 * n for n in range(count))
        entries.append(
            ResultEntry(game_id=game.pk, result=ResultInput(ResultKind.NORMAL, tuple(scores)))
        )
    round_record_results(round=round_obj, entries=entries, by=None)


# --- table sizes ------------------------------------------------------------------------


def test_fourteen_present_at_fours_sit_at_two_tables_of_4_and_two_of_3(competition):
    at_tables(competition, starters="assigned")
    players = enter(competition, 14)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    tables = tables_of(round_obj)
    assert sorted(len(table) for table in tables) == [3, 3, 4, 4]
    seated = [player for table in tables for player in table]
    assert sorted(seated) == sorted(player.pk for player in players)
    # The engine seats every table: seat 0 starts.
    assert {game.starter for game in round_obj.games.all()} == {0}


def test_by_lot_at_the_table_leaves_who_starts_open(competition):
    at_tables(competition, size="3", starters="by_lot")
    enter(competition, 10)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    assert sorted(len(table) for table in tables_of(round_obj)) == [3, 3, 4]
    assert {game.starter for game in round_obj.games.all()} == {None}


@pytest.mark.parametrize(("present", "sizes"), [(5, [2, 3]), (2, [2]), (9, [3, 3, 3])])
def test_a_table_of_2_only_where_no_other_split_exists(competition, present, sizes):
    at_tables(competition)
    enter(competition, present)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    assert sorted(len(table) for table in tables_of(round_obj)) == sizes


def test_one_player_left_over_has_the_bye_and_a_table_of_2_is_kept_as_today(competition):
    enter(competition, 7)  # tables of 2, the default: as one against one
    round_obj = round_create(competition=competition)
    result = round_pair(round=round_obj)
    assert result.tables == ()
    assert sorted(len(table) for table in tables_of(round_obj)) == [1, 2, 2, 2]


def test_gouds_8_cannot_play_at_tables(competition):
    with pytest.raises(CompetitionError, match="at most 2 players"):
        competition_update(competition=competition, settings={"table_size": "4"})
    competition.refresh_from_db()
    assert competition.table_size == "2"


def test_a_duplicate_competition_is_no_competition_to_pair(club):
    """Duplicate is its own model (`duplicate.DuplicateCompetition`): a paired competition
    of that kind cannot be made, so it can have no rounds, tables or pairings."""
    from competition.services.competitions import competition_create

    with pytest.raises(CompetitionError):
        competition_create(
            club=club,
            settings={"name": "Duplicate", "slug": "duplicate", "kind": "duplicate"},
        )
    assert not Competition.objects.filter(slug="duplicate").exists()


# --- the systems ------------------------------------------------------------------------


def test_swiss_by_tables_avoids_the_tables_of_the_stored_round(competition):
    """Round 1 (stored by hand): four tables of 3, each all equal, the tables ordered by
    board points, so the standings cut in order would seat the same tables again."""
    at_tables(competition, size="3")
    players = enter(competition, 12)
    first = round_create(competition=competition)
    tables = [tuple(p.pk for p in players[n : n + 3]) for n in range(0, 12, 3)]
    round_set_pairings(
        round=first,
        pairings=[PairingSpec(table, table=n) for n, table in enumerate(tables, 1)],
    )
    play(first, lambda game: (400 - 50 * (game.table - 1),) * 3)
    rows = selectors.standings_get(competition).groups[""]
    order = [row.player_id for row in rows]
    assert [tuple(sorted(order[n : n + 3])) for n in range(0, 12, 3)] == tables
    second = round_create(competition=competition)
    round_pair(round=second, system="swiss")
    assert max(met(tables_of(second)).values()) == 1
    assert not set(met(tables_of(second))) & set(met(tables))


def test_round_robin_at_tables_of_4_is_the_golfer_schedule(competition):
    """16 players at tables of 4 over 5 rounds, through the app: everyone meets everyone
    exactly once (16 x 15 / 2 = 120 pairs, 5 rounds x 4 tables x 6 pairs = 120)."""
    at_tables(competition, size="4", pairing_system="rr")
    players = enter(competition, 16)
    history = []
    for _number in range(5):
        round_obj = round_create(competition=competition)
        round_pair(round=round_obj)
        tables = tables_of(round_obj)
        assert [len(table) for table in tables] == [4, 4, 4, 4]
        history += tables
        play(round_obj)
    meetings = met(history)
    assert len(meetings) == 120
    assert set(meetings.values()) == {1}
    assert {p for pair in meetings for p in pair} == {p.pk for p in players}


def test_random_tables_and_king_of_the_hill(competition):
    at_tables(competition, pairing_system="random")
    enter(competition, 8)
    round_obj = round_create(competition=competition)
    first = round_pair(round=round_obj, seed=7)
    again = round_pairing_preview(round=round_obj, seed=7)
    assert [t.players for t in first.tables] == [t.players for t in again.tables]
    assert first.system == "random"
    play(round_obj)
    second = round_create(competition=competition)
    result = round_pair(round=second, system="koth")
    rows = selectors.standings_get(competition).groups[""]
    top = {row.player_id for row in rows[:4]}
    assert result.system == "king_of_the_hill"
    assert set(result.tables[0].players) == top


def test_the_seats_rotate_who_starts(competition):
    """Six rounds of tables of 3 for 9 players: a table of 3 gives a fair share of a third
    per round, 2 starts each; the engine keeps everyone within one of it, read from the
    seats stored round after round."""
    at_tables(competition, size="3", starters="assigned", pairing_system="random")
    enter(competition, 9)
    starts = Counter()
    for _number in range(6):
        round_obj = round_create(competition=competition)
        round_pair(round=round_obj)
        for game in round_obj.games.with_seats():
            starts[game.players[game.starter].pk] += 1
        play(round_obj)
    assert sum(starts.values()) == 18
    assert set(starts.values()) <= {1, 2, 3}
    assert len(starts) == 9


# --- the round's own table size ---------------------------------------------------------


def test_a_round_of_its_own_table_size_is_kept_with_the_pairing(competition, secretary):
    competition_update(competition=competition, settings={"rules": "standard"})
    competition.refresh_from_db()
    enter(competition, 8)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj, table_size="4", by=secretary)
    round_obj.refresh_from_db()
    assert round_obj.table_size == "4"
    assert [len(table) for table in tables_of(round_obj)] == [4, 4]
    entry = HistoryEntry.objects.filter(action=HistoryAction.PAIRING_GENERATE).latest("pk")
    assert (entry.before["table_size"], entry.after["table_size"]) == ("", "4")
    with translation.override("nl"):
        rows = {row.label: (row.before, row.after) for row in entry_changes(entry)}
    assert rows["tafelgrootte"] == (
        "zoals de competitie",
        "tafels van 4 (tafels van 3 als er spelers over zijn)",
    )
    # Paired again without a choice: the round keeps its own size.
    round_pair(round=round_obj)
    assert [len(table) for table in tables_of(round_obj)] == [4, 4]
    # The next round is the competition's again.
    play(round_obj)
    following = round_create(competition=competition)
    round_pair(round=following)
    assert [len(table) for table in tables_of(following)] == [2, 2, 2, 2]


def test_a_round_table_size_the_rules_cannot_play_is_refused(competition):
    enter(competition, 8)  # Gouds 8: two players
    round_obj = round_create(competition=competition)
    with pytest.raises(CompetitionError, match="at most 2 players"):
        round_pair(round=round_obj, table_size="3")
    with pytest.raises(CompetitionError, match="table size from the list"):
        round_pair(round=round_obj, table_size="5")
    round_obj.refresh_from_db()
    assert (round_obj.table_size, round_obj.games.count()) == ("", 0)


# --- the swap ---------------------------------------------------------------------------


@pytest.fixture
def paired(competition):
    at_tables(competition, size="4", starters="assigned")
    players = enter(competition, 9)  # 3 + 3 + 3
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    return round_obj, players


def test_two_players_at_two_tables_change_tables(paired, secretary):
    round_obj, _players = paired
    first, second = tables_of(round_obj)[:2]
    x, y = first[1], second[2]
    round_swap(round=round_obj, player_x=x, player_y=y, by=secretary)
    after = {frozenset(table) for table in tables_of(round_obj)}
    assert (frozenset(first) - {x}) | {y} in after
    assert (frozenset(second) - {y}) | {x} in after
    entry = HistoryEntry.objects.get(action=HistoryAction.PAIRING_SWAP)
    assert entry.by == secretary
    assert len(entry.before["pairings"]) == len(entry.after["pairings"]) == 2


def test_two_players_at_one_table_change_seats_and_so_who_starts(paired):
    round_obj, _players = paired
    table = tables_of(round_obj)[0]
    round_swap(round=round_obj, player_x=table[0], player_y=table[2])
    game = round_obj.games.with_seats().get(table=1)
    assert tuple(p.pk for p in game.players) == (table[2], table[1], table[0])
    assert game.players[game.starter].pk == table[2]


def test_no_swap_once_a_table_has_a_result(paired):
    round_obj, _players = paired
    first, second = tables_of(round_obj)[:2]
    game = round_obj.games.get(table=1)
    entry = ResultEntry(game_id=game.pk, result=ResultInput(ResultKind.NORMAL, (300, 200, 100)))
    round_record_results(round=round_obj, entries=[entry], by=None)
    with pytest.raises(CompetitionError, match="result cannot be changed"):
        round_swap(round=round_obj, player_x=first[0], player_y=second[0])
    assert tables_of(round_obj)[:2] == [first, second]


def test_a_swap_with_a_player_not_in_the_round_is_refused(paired, competition):
    round_obj, _players = paired
    stranger = PlayerFactory()
    table = tables_of(round_obj)[0]
    with pytest.raises(CompetitionError, match="Both players must have a place"):
        round_swap(round=round_obj, player_x=table[0], player_y=stranger.pk)
    with pytest.raises(CompetitionError, match="two different players"):
        round_swap(round=round_obj, player_x=table[0], player_y=table[0])


# --- a late arrival ---------------------------------------------------------------------


def test_a_late_arrival_joins_a_table_of_3_to_make_4(competition, secretary):
    at_tables(competition, size="3")
    players = enter(competition, 10)
    round_obj = round_create(competition=competition)
    late = players[-1]
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in players[:-1]])
    round_pair(round=round_obj)  # 9: three tables of 3
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in players])
    game = round_add_late_player(round=round_obj, player_id=late.pk, join_table=2, by=secretary)
    assert (game.table, len(game.seat_list), game.players[-1]) == (2, 4, late)
    assert sorted(len(t) for t in tables_of(round_obj)) == [3, 3, 4]
    entry = HistoryEntry.objects.get(action=HistoryAction.PAIRING_LATE)
    assert len(entry.after["pairings"][0][1]) == 4
    # A table of 4 is full.
    extra = PlayerFactory()
    EntrantFactory(competition=competition, player=extra)
    with pytest.raises(CompetitionError, match="full"):
        round_add_late_player(round=round_obj, player_id=extra.pk, join_table=2)
    with pytest.raises(CompetitionError, match="no table 9"):
        round_add_late_player(round=round_obj, player_id=extra.pk, join_table=9)
    with pytest.raises(CompetitionError, match="no table"):
        round_add_late_player(round=round_obj, player_id=extra.pk, join_table=10**30)
    assert sorted(len(t) for t in tables_of(round_obj)) == [3, 3, 4]


def test_no_late_arrival_joins_a_pair(competition):
    players = enter(competition, 5)
    round_obj = round_create(competition=competition)
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in players[:4]])
    round_pair(round=round_obj)
    round_set_attendance(round=round_obj, present_player_ids=[p.pk for p in players])
    with pytest.raises(CompetitionError, match="one against one"):
        round_add_late_player(round=round_obj, player_id=players[4].pk, join_table=1)


# --- the standings at tables ------------------------------------------------------------


def test_standings_scaled_with_the_relative_score_through_the_app(competition):
    """One round at a table of 2, of 3 and of 4, scaled to one game, relative score.

    | table | scores | per opponent | scaled | relative |
    | 2 | Anna 300, Bert 300 | 1, 1 | 1, 1 | 300 x 2 / 600 = 1.0 each |
    | 3 | Cor 300, Dirk 340, Eva 160 | 2, 4, 0 | 1, 2, 0 | 300 x 3 / 800 = 1.125, 1.275, 0.6 |
    | 4 | Femke 250, Gijs 250, Hanna 100, Ivo 200 | 5, 5, 0, 2 | 5/3, 5/3, 0, 2/3 |
      250 x 4 / 800 = 1.25, 1.25, 0.5, 1.0 |

    Scaled: Dirk 2; Femke and Gijs 5/3 with 250 and 1.25 each share 2nd; Cor, Anna, Bert
    1 with 300, Cor's 1.125 before their 1.0; Ivo 2/3; Eva 0 with 160 before Hanna's 100.
    """
    at_tables(
        competition, table_scoring="scaled", tiebreaks=["relative_score"], pairing_system="swiss"
    )
    names = ["Anna", "Bert", "Cor", "Dirk", "Eva", "Femke", "Gijs", "Hanna", "Ivo"]
    players = {name: PlayerFactory(name=name) for name in names}
    for player in players.values():
        EntrantFactory(competition=competition, player=player)
    round_obj = round_create(competition=competition)
    tables = [["Anna", "Bert"], ["Cor", "Dirk", "Eva"], ["Femke", "Gijs", "Hanna", "Ivo"]]
    scores = [(300, 300), (300, 340, 160), (250, 250, 100, 200)]
    games = round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(tuple(players[name].pk for name in table), table=n)
            for n, table in enumerate(tables, 1)
        ],
    )
    round_record_results(
        round=round_obj,
        entries=[
            ResultEntry(game_id=game.pk, result=ResultInput(ResultKind.NORMAL, score))
            for game, score in zip(sorted(games, key=lambda g: g.table), scores, strict=True)
        ],
        by=None,
    )
    rows = selectors.standings_get(competition).groups[""]
    ranked = [(row.rank, row.name) for row in rows]
    assert ranked == [
        (1, "Dirk"),
        (2, "Femke"),
        (2, "Gijs"),
        (4, "Cor"),
        (5, "Anna"),
        (5, "Bert"),
        (7, "Ivo"),
        (8, "Eva"),
        (9, "Hanna"),
    ]
    by_name = {row.name: row for row in rows}
    assert by_name["Femke"].match_points == pytest.approx(5 / 3)
    assert float(by_name["Cor"].tiebreak_values["relative_score"]) == pytest.approx(1.125)
    # Per opponent (the default) the foursome's 5 points rank above Dirk's 4.
    competition_update(competition=competition, settings={"table_scoring": "per_opponent"})
    rows = selectors.standings_get(Competition.objects.get(pk=competition.pk)).groups[""]
    assert [row.name for row in rows[:3]] == ["Femke", "Gijs", "Dirk"]


def test_a_round_at_tables_is_a_round(competition):
    """Published, played: the round is finished like a round of pairs."""
    at_tables(competition)
    enter(competition, 7)
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    play(round_obj)
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.FINISHED
    assert Game.objects.filter(round=round_obj).count() == 2


def test_the_pair_command_prints_the_tables(competition):
    import json
    from io import StringIO

    from django.core.management import call_command

    at_tables(competition)
    players = enter(competition, 7)
    out = StringIO()
    name = f"{competition.club.slug}/{competition.slug}"
    call_command("pair", name, "--dry-run", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert sorted(len(table["players"]) for table in data["tables"]) == [3, 4]
    assert sorted(p for t in data["tables"] for p in t["players"]) == sorted(p.pk for p in players)
    out = StringIO()
    call_command("pair", name, "--dry-run", stdout=out)
    assert out.getvalue().count("MP spread") == 2


def test_groups_pair_apart_at_tables(competition):
    from tests.factories import GroupFactory

    at_tables(competition)
    groups = [GroupFactory(competition=competition, name=name) for name in ("A", "B")]
    members = {}
    for group in groups:
        for n in range(7):
            player = PlayerFactory(name=f"{group.name}{n}")
            EntrantFactory(competition=competition, player=player, group=group)
            members[player.pk] = group.name
    round_obj = round_create(competition=competition)
    round_pair(round=round_obj)
    games = list(round_obj.games.with_seats().order_by("table"))
    assert [game.table for game in games] == [1, 2, 3, 4]
    by_group: dict[str, list[int]] = {}
    for game in games:
        (group,) = {members[player.pk] for player in game.players}
        by_group.setdefault(group, []).append(len(game.seat_list))
    assert {group: sorted(sizes) for group, sizes in by_group.items()} == {
        "A": [3, 4],
        "B": [3, 4],
    }
    # Groups by name, tables numbered on: group A at tables 1 and 2.
    assert {members[player.pk] for game in games[:2] for player in game.players} == {"A"}
