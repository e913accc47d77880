"""Tables of 3 and 4 wherever results are shown: the crosstable (each pair at a table a
meeting), the player's history (all opponents, the player's place, head to head per pair),
the club-room screen and the public round page (every player with their score)."""

import re

import pytest
from django.urls import reverse

from competition import selectors
from competition.models import Competition, Round
from competition.services.rounds import round_create, round_set_pairings, round_set_status
from games.services import PairingSpec, ResultInput, game_record_result
from tests.competition.test_query_budget import queries
from tests.factories import EntrantFactory, PlayerFactory

pytestmark = pytest.mark.django_db

NAMES = ("An", "Bo", "Cas", "Do", "Ed")


@pytest.fixture
def evening(competition):
    """Round 1: An, Bo, Cas, Do at table 1 (Do's flag fell), Ed's bye; round 2: Bo, Ed and
    An at table 1, Cas – Do at table 2 (no result yet)."""
    competition.rules = Competition.Rules.STANDARD
    competition.save()
    players = {name: PlayerFactory(name=name) for name in NAMES}
    for player in players.values():
        EntrantFactory(competition=competition, player=player)

    def round_of(tables, results):
        round_obj = round_create(competition=competition)
        specs = [
            PairingSpec(players=tuple(players[name].pk for name in names), table=number)
            for number, names in enumerate(tables, start=1)
            if len(names) > 1
        ] + [PairingSpec(players=(players[n[0]].pk,)) for n in tables if len(n) == 1]
        round_set_pairings(round=round_obj, pairings=specs)
        round_set_status(round=round_obj, status=Round.Status.PUBLISHED, by=None)
        for table, result in results.items():
            game = round_obj.games.get(table=table)
            game_record_result(game=game, result=result, by=None)
        return round_obj

    round_of(
        [("An", "Bo", "Cas", "Do"), ("Ed",)],
        {1: ResultInput("flag_d", (300, 412, 290, 450))},
    )
    round_of(
        [("Bo", "Ed", "An"), ("Cas", "Do")],
        {1: ResultInput("normal", (350, 350, 320))},
    )
    return competition, players


def test_each_pair_at_a_table_is_a_meeting_in_the_crosstable(evening):
    competition, _players = evening
    table = selectors.crosstable_get(competition)
    names = [row.name for row in table.rows]
    cell = {
        (names[i], names[j]): list(table.cells[i][j])
        for i in range(len(names))
        for j in range(len(names))
        if table.cells[i][j]
    }
    assert cell["Bo", "An"] == ["+412-300", "+350-320"]
    assert cell["An", "Bo"] == ["−300-412", "−320-350"]
    assert cell["An", "Cas"] == ["+300-290"]
    # Do's flag fell: a loss against all three, whatever the score.
    assert cell["Do", "Bo"] == ["−450-412"] and cell["Bo", "Do"] == ["+412-450"]
    assert cell["Bo", "Ed"] == ["=350-350"]
    assert cell["Cas", "Do"] == ["+290-450"]  # round 1 only: their pair of round 2 is playing


def test_the_crosstable_page_lists_the_table_meetings(client, evening):
    competition, _players = evening
    html = client.get(reverse("crosstable", kwargs=competition.url_kwargs)).content.decode()
    assert "+412-450" in html and "−450-412" in html


def test_the_players_history_shows_every_opponent_and_the_place(client, evening, club):
    _competition, players = evening
    url = reverse("player_history", kwargs={"club": club.slug, "player_id": players["An"].pk})
    html = client.get(url).content.decode()
    rows = re.findall(r'<tr data-game="\d+">(.*?)</tr>', html, re.S)
    first = rows[0] if "Cas" in rows[0] else rows[1]
    assert re.findall(r">(Bo|Cas|Do)</a>", first) == ["Bo", "Cas", "Do"]
    assert "plaats 2 van 4" in first
    assert ">412<" in first and ">290<" in first and ">450<" in first
    second = rows[1] if first is rows[0] else rows[0]
    assert "plaats 3 van 3" in second


def test_head_to_head_counts_each_pair_at_a_table(evening, club):
    from competition.player_history import player_history

    _competition, players = evening
    history = player_history(club, players["An"])
    meetings = {
        meeting.opponent.name: (meeting.games, meeting.wins, meeting.draws, meeting.losses)
        for meeting in history.head_to_head
    }
    assert meetings == {
        "Bo": (2, 0, 0, 2),
        "Ed": (1, 0, 0, 1),
        "Cas": (1, 1, 0, 0),
        "Do": (1, 1, 0, 0),
    }
    bo = next(m for m in history.head_to_head if m.opponent.name == "Bo")
    assert (bo.board_points, bo.opponent_board_points) == (620, 762)


def test_the_round_page_shows_each_player_with_their_score(client, evening):
    competition, _players = evening
    url = reverse("round", kwargs={**competition.url_kwargs, "number": 1})
    html = client.get(url).content.decode()
    seats = re.findall(
        r'<li class="text-nowrap( fw-semibold winner)?" data-seat="(\d)"><a [^>]*>(\w+)</a>'
        r'(?: <span[^>]*>●</span>)? <span class="seat-score">(\d+)</span>',
        html,
    )
    assert [(name, int(score), bool(won)) for won, _pos, name, score in seats] == [
        ("An", 300, False),
        ("Bo", 412, True),
        ("Cas", 290, False),
        ("Do", 450, False),
    ]
    assert "(vlag gevallen)" in html
    # The header fits: players and scores across, no "opponent" column at tables.
    assert '<th colspan="3">Spelers en bordpunten</th>' in html and "Tegenstander" not in html


def test_the_club_room_screen_shows_tables(client, evening):
    competition, _players = evening
    url = reverse("screen", kwargs=competition.url_kwargs)
    html = client.get(url).content.decode()
    results = html.split("screen-results", 1)[1].split("</section>", 1)[0]
    assert re.search(r'class="text-nowrap fw-semibold winner" data-seat="0">Bo', results)
    assert '<span class="seat-score">350</span>' in results
    assert "bezig" in results  # the pair still playing, as before tables


def test_the_pages_keep_their_query_count_with_tables(client, evening):
    competition, _players = evening
    for name, kwargs in (
        ("round", {"number": 2}),
        ("crosstable", {}),
    ):
        url = reverse(name, kwargs={**competition.url_kwargs, **kwargs})
        assert len(queries(client, url)) <= 12


def test_the_player_page_shows_the_place_at_a_table(client, evening):
    competition, players = evening
    url = reverse("player", kwargs={**competition.url_kwargs, "player_id": players["Do"].pk})
    html = client.get(url).content.decode()
    assert "plaats 4 van 4" in html and "450 – None" not in html


def _crosstable_by_name(competition) -> dict[tuple[str, str], list[str]]:
    table = selectors.crosstable_get(competition)
    names = [row.name for row in table.rows]
    return {
        (names[i], names[j]): list(table.cells[i][j])
        for i in range(len(names))
        for j in range(len(names))
        if table.cells[i][j]
    }


def _marks(texts) -> tuple[int, int, int]:
    """Wins, draws and losses among crosstable texts."""
    return tuple(sum(text.startswith(mark) for text in texts) for mark in "+=−")


def test_a_table_of_three_where_two_did_not_come_agrees_with_the_standings(competition):
    """Issue 39: An came, Bo and Cas did not. The standings count a loss for each of Bo
    and Cas against the other (two who stayed away both lose); the crosstable showed a
    draw between them."""
    competition.rules = Competition.Rules.STANDARD
    competition.save()
    players = [PlayerFactory(name=name) for name in ("An", "Bo", "Cas", "Do", "Ed", "Fé", "Gijs")]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    round_obj = round_create(competition=competition)
    tables = [players[:3], players[3:]]  # a table of 3, and one of 4 where nobody played
    round_set_pairings(
        round=round_obj,
        pairings=[
            PairingSpec(players=tuple(p.pk for p in table), table=number)
            for number, table in enumerate(tables, start=1)
        ],
    )
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED, by=None)
    game_record_result(game=round_obj.games.get(table=1), result=ResultInput("forfeit_bc"), by=None)
    # Do and Ed came, Fé and Gijs did not; nobody played: Do and Ed did not meet.
    game_record_result(game=round_obj.games.get(table=2), result=ResultInput("forfeit_cd"), by=None)

    cells = _crosstable_by_name(competition)
    rows = {row.name: row for row in selectors.standings_get(competition).groups[""]}
    assert cells["Bo", "Cas"] == ["−F"] and cells["Cas", "Bo"] == ["−F"]
    assert cells["An", "Bo"] == ["+F"] and cells["Bo", "An"] == ["−F"]
    assert ("Do", "Ed") not in cells and ("Ed", "Do") not in cells
    assert cells["Fé", "Gijs"] == ["−F"]
    for name, row in rows.items():
        texts = [text for (me, _other), found in cells.items() if me == name for text in found]
        assert _marks(texts) == (row.wins, row.draws, row.losses), name
    assert (rows["Bo"].losses, rows["Bo"].draws, rows["Cas"].losses) == (2, 0, 2)
