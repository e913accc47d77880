"""The results page at tables of 3 and 4: a score field per player, the table's own outcome
choices, the same refusals (in Dutch, naming the player), a constant number of queries."""

import re

import pytest
from django.urls import reverse

from competition.services.rounds import round_create, round_set_pairings
from games.models import Game, Outcome
from games.services import PairingSpec
from tests.competition.test_query_budget import queries
from tests.factories import EntrantFactory, PlayerFactory, result_changes
from tests.spreadsheets import csv_lines

pytestmark = pytest.mark.django_db

NAMES = ("An", "Bo", "Cas", "Do", "Ed", "Fien", "Gijs")
EVERY_SCORE_NL = "Vul de bordpunten van elke speler in."


def seated_round(competition, tables):
    """Round 1 of `competition` with `tables` (lists of indexes into NAMES), tables 1, 2, …"""
    competition.rules = competition.Rules.STANDARD
    competition.save()
    players = [PlayerFactory(name=name) for name in NAMES]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    round_obj = round_create(competition=competition)
    specs = [
        PairingSpec(players=tuple(players[i].pk for i in seats), table=number)
        for number, seats in enumerate(tables, start=1)
    ]
    round_set_pairings(round=round_obj, pairings=specs)
    games = list(round_obj.games.exclude(outcome=Outcome.BYE).with_seats().order_by("table"))
    return round_obj, games


@pytest.fixture
def tables(competition):
    """A table of 4 (An, Bo, Cas, Do) and one of 3 (Ed, Fien, Gijs)."""
    return seated_round(competition, [(0, 1, 2, 3), (4, 5, 6)])


def results_url(round_obj) -> str:
    return reverse(
        "round_results", kwargs={**round_obj.competition.url_kwargs, "number": round_obj.number}
    )


def post_data(games, rows) -> dict:
    data = {"form-TOTAL_FORMS": len(games), "form-INITIAL_FORMS": len(games)}
    for index, (game, row) in enumerate(zip(games, rows, strict=True)):
        game.refresh_from_db()
        blank = {f"score_{letter}": "" for letter in "abcd"[: len(game.seat_list)]}
        row = {"kind": "normal", "reason": "", **blank, **row}
        data.update({f"form-{index}-{key}": value for key, value in row.items()})
        data[f"form-{index}-game"] = game.pk
        data[f"form-{index}-version"] = row.get("version", game.version)
    return data


def stored(game) -> tuple:
    game = Game.objects.with_seats().get(pk=game.pk)
    seats = game.seat_list
    return (
        game.outcome,
        [seat.score for seat in seats],
        [seat.place for seat in seats],
        [seat.flag_fell for seat in seats],
    )


def public_rows(client, round_obj) -> dict[str, dict]:
    """The standings rows by player name, after every public page of the competition
    (each player's page, the crosstable, the round) was read without an error."""
    competition = round_obj.competition
    response = client.get(reverse("standings_json", kwargs=competition.url_kwargs))
    rows = {row["player"]: row for row in response.json()["rows"]}
    for row in rows.values():
        page = reverse("player", kwargs={**competition.url_kwargs, "player_id": row["player_id"]})
        assert client.get(page).status_code == 200
    assert client.get(reverse("crosstable", kwargs=competition.url_kwargs)).status_code == 200
    assert client.get(round_obj.get_absolute_url()).status_code == 200
    return rows


def row_of(html: str, game) -> str:
    part = html.split(f'data-game="{game.pk}"', 1)[1]
    return part.split('<tr class="result-row', 1)[0]


def test_a_field_per_player_in_table_order(secretary_client, tables):
    round_obj, games = tables
    html = secretary_client.get(results_url(round_obj)).content.decode()
    names = re.findall(r'name="(form-\d-score_[a-d])"', html)
    assert names == [*(f"form-0-score_{s}" for s in "abcd"), *(f"form-1-score_{s}" for s in "abc")]
    assert "form-1-score_d" not in html
    table_of_4 = row_of(html, games[0])
    # Each name labels its own field, in table order.
    labels = re.findall(r'<label for="id_form-0-score_([a-d])">([^<]+)</label>', table_of_4)
    assert labels == [("a", "An"), ("b", "Bo"), ("c", "Cas"), ("d", "Do")]
    # The table's own outcomes: one flag per player, two and three flags, a forfeit each.
    options = re.findall(r'<option value="([a-z_]+)"', table_of_4)
    assert options[:5] == ["normal", "flag_a", "flag_b", "flag_c", "flag_d"]
    assert {"flag_ab", "flag_bcd", "forfeit_d", "annulled"} <= set(options)
    assert "flag_abcd" not in options and "forfeit_both" not in options
    table_of_3 = re.findall(r'<option value="([a-z_]+)"', row_of(html, games[1]))
    assert "flag_abc" not in table_of_3 and "flag_ac" in table_of_3
    assert ">vlag gevallen: Do<" in table_of_4 and ">vlaggen gevallen: An en Bo<" in table_of_4


def test_one_post_saves_every_table_with_places(secretary_client, tables):
    round_obj, games = tables
    before = result_changes(competition_id=round_obj.competition_id).count()
    data = post_data(
        games,
        [
            {"score_a": 300, "score_b": 412, "score_c": 300, "score_d": 250},
            {"kind": "flag_b", "score_a": 280, "score_b": 450, "score_c": 300},
        ],
    )
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 302
    assert stored(games[0]) == (
        Outcome.NORMAL,
        [300, 412, 300, 250],
        [2, 1, 2, 4],
        [False] * 4,
    )
    # Fien's flag fell: she loses against both, whatever her score.
    assert stored(games[1]) == (Outcome.FLAG_FALL, [280, 450, 300], [2, 3, 1], [False, True, False])
    assert result_changes(competition_id=round_obj.competition_id).count() == before + 2


def test_two_flags_at_one_table(secretary_client, tables):
    round_obj, games = tables
    data = post_data(
        games,
        [{"kind": "flag_ac", "score_a": 400, "score_b": 200, "score_c": 390, "score_d": 210}, {}],
    )
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    assert stored(games[0]) == (
        Outcome.FLAG_FALL,
        [400, 200, 390, 210],
        [3, 2, 4, 1],
        [True, False, True, False],
    )
    # The page shows it as it was typed.
    html = secretary_client.get(results_url(round_obj)).content.decode()
    assert re.search(r'<option value="flag_ac" selected>', row_of(html, games[0]))


def test_an_annulled_table_and_a_forfeit(secretary_client, tables):
    round_obj, games = tables
    data = post_data(games, [{"kind": "annulled"}, {"kind": "forfeit_c"}])
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    assert stored(games[0]) == (Outcome.ANNULLED, [None] * 4, [None] * 4, [False] * 4)
    assert stored(games[1]) == (Outcome.FORFEIT, [None] * 3, [1, 1, None], [False] * 3)


def test_a_table_plays_on_without_who_did_not_come(secretary_client, client, tables):
    """Cas does not come to the table of 4: the three others play and type their board
    points with "walk-over: Cas"; at the table of 3 nobody plays. The standings, the
    player pages, the history and the results CSV all read it; nothing fails."""
    round_obj, games = tables
    competition = round_obj.competition
    data = post_data(
        games,
        [
            {"kind": "forfeit_c", "score_a": 300, "score_b": 412, "score_d": 250},
            {"kind": "forfeit_c"},
        ],
    )
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    assert stored(games[0]) == (Outcome.NORMAL, [300, 412, None, 250], [2, 1, None, 3], [False] * 4)
    assert stored(games[1]) == (Outcome.FORFEIT, [None] * 3, [1, 1, None], [False] * 3)
    # The page shows it as it was typed.
    html = secretary_client.get(results_url(round_obj)).content.decode()
    assert re.search(r'<option value="forfeit_c" selected>', row_of(html, games[0]))

    rows = public_rows(client, round_obj)
    # Bo beats the three others, An two, Do one (Cas, who did not come); Ed and Fien win
    # against Gijs and did not meet each other.
    assert {name: row["match_points"] for name, row in rows.items()} == {
        "Bo": 6,
        "An": 4,
        "Do": 2,
        "Cas": 0,
        "Ed": 2,
        "Fien": 2,
        "Gijs": 0,
    }
    assert {name: rows[name]["board_points"] for name in ("An", "Bo", "Cas", "Do")} == {
        "An": 300,
        "Bo": 412,
        "Cas": 0,
        "Do": 250,
    }
    assert (rows["Ed"]["wins"], rows["Ed"]["draws"], rows["Ed"]["losses"]) == (1, 0, 0)

    history = secretary_client.get(
        reverse("competition_history", kwargs=competition.url_kwargs)
    ).content.decode()
    assert "walk-over: Cas, An 300, Bo 412, Do 250, Bo wint" in history
    assert "walk-over: Gijs, Ed en Fien winnen" in history

    exported = secretary_client.get(reverse("results_csv", kwargs=competition.url_kwargs))
    lines = csv_lines(exported.content.decode())
    assert ["1", "1", "Cas", "", "forfeit"] in lines and ["1", "1", "Bo", "412", "normal"] in lines
    assert ["1", "2", "Gijs", "", "forfeit"] in lines and ["1", "2", "Ed", "", "normal"] in lines


def test_two_who_did_not_come_to_a_table(secretary_client, client, tables):
    """Bo and Cas do not come to the table of 4: An and Do play each other and type their
    board points with "walk-over: Bo en Cas"; at the table of 3 only Fien comes and wins
    by forfeit against both. Every page reads it; the page shows it as typed."""
    round_obj, games = tables
    competition = round_obj.competition
    html = secretary_client.get(results_url(round_obj)).content.decode()
    assert re.search(r'<option value="forfeit_bc">walk-over: Bo en Cas<', row_of(html, games[0]))
    # Everyone, as a pair's "forfeit: both": nobody came.
    assert '<option value="forfeit_abc">walk-over: Ed, Fien en Gijs<' in row_of(html, games[1])
    data = post_data(
        games,
        [
            {"kind": "forfeit_bc", "score_a": 300, "score_d": 350},
            {"kind": "forfeit_ac"},
        ],
    )
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    assert stored(games[0]) == (
        Outcome.NORMAL,
        [300, None, None, 350],
        [2, None, None, 1],
        [False] * 4,
    )
    assert stored(games[1]) == (Outcome.FORFEIT, [None] * 3, [None, 1, None], [False] * 3)
    html = secretary_client.get(results_url(round_obj)).content.decode()
    assert re.search(r'<option value="forfeit_bc" selected>', row_of(html, games[0]))
    assert re.search(r'<option value="forfeit_ac" selected>', row_of(html, games[1]))

    rows = public_rows(client, round_obj)
    # Do beats An and both who did not come; An beats those two; Fien wins twice.
    assert {name: row["match_points"] for name, row in rows.items()} == {
        "Do": 6,
        "An": 4,
        "Bo": 0,
        "Cas": 0,
        "Fien": 4,
        "Ed": 0,
        "Gijs": 0,
    }
    history = secretary_client.get(
        reverse("competition_history", kwargs=competition.url_kwargs)
    ).content.decode()
    assert "walk-over: Bo en Cas, An 300, Do 350, Do wint" in history


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        # Who did not come has no board points.
        (
            {"kind": "forfeit_bc", "score_a": 300, "score_b": 10, "score_d": 350},
            "score_b",
            "Deze speler kwam niet",
        ),
        # Who came and played has them.
        ({"kind": "forfeit_bc", "score_a": 300}, "score_d", "elke speler die er was"),
    ],
)
def test_two_who_did_not_come_and_the_board_points_that_do_not_fit(
    secretary_client, tables, row, field, message
):
    round_obj, games = tables
    response = secretary_client.post(results_url(round_obj), post_data(games, [row, {}]))
    assert response.status_code == 200
    assert stored(games[0])[0] == Outcome.PENDING
    errors = response.context["formset"].forms[0].errors
    assert field in errors and message in " ".join(errors[field])


def test_the_scores_of_a_table_played_without_one_are_asked_about_as_any(secretary_client, tables):
    """0 – 0 – 0 among the three who played, or a score far above the usual, is asked
    about before it is saved, as at a full table; ticked, it is saved."""
    round_obj, games = tables
    zeros = {"kind": "forfeit_c", "score_a": 0, "score_b": 0, "score_d": 0}
    response = secretary_client.post(results_url(round_obj), post_data(games, [zeros, {}]))
    assert response.status_code == 200
    assert "0 – 0: niemand heeft gescoord" in row_of(response.content.decode(), games[0])
    high = {"kind": "forfeit_c", "score_a": 300, "score_b": 1900, "score_d": 250}
    response = secretary_client.post(results_url(round_obj), post_data(games, [high, {}]))
    assert "1900 is hoger dan gebruikelijk" in row_of(response.content.decode(), games[0])
    assert stored(games[0])[0] == Outcome.PENDING
    confirmed = {**high, "confirm": "300/1900//250"}
    response = secretary_client.post(results_url(round_obj), post_data(games, [confirmed, {}]))
    assert response.status_code == 302
    assert stored(games[0])[:2] == (Outcome.NORMAL, [300, 1900, None, 250])


def test_a_missing_score_names_the_player_and_saves_nothing(secretary_client, tables):
    round_obj, games = tables
    data = post_data(
        games,
        [
            {"score_a": 300, "score_b": 412, "score_c": 300},
            {"score_a": 280, "score_b": 450, "score_c": 300},
        ],
    )
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    row = row_of(response.content.decode(), games[0])
    assert f"Bordpunten van Do: {EVERY_SCORE_NL}" in row
    assert stored(games[1])[0] == Outcome.PENDING
    assert stored(games[0])[0] == Outcome.PENDING


@pytest.mark.parametrize(
    "row, message",
    [
        ({"score_d": "٣٠٠"}, "Typ alleen de cijfers 0 tot en met 9"),
        ({"score_d": "1" * 30}, "Bordpunten van Do:"),
        ({"score_d": "\x00\xff"}, "Bordpunten van Do:"),
        ({"kind": "flag_abcd"}, "flag_abcd is geen beschikbare keuze"),
        ({"kind": "forfeit_both"}, "forfeit_both is geen beschikbare keuze"),
        ({"kind": "annulled"}, "Bordpunten van Do: Bij een walk-over of een niet naar behoren"),
    ],
)
def test_odd_input_is_refused_in_dutch(secretary_client, tables, row, message):
    round_obj, games = tables
    scores = {"score_a": 300, "score_b": 412, "score_c": 300, "score_d": 250}
    data = post_data(games, [{**scores, **row}, {}])
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert stored(games[0])[0] == Outcome.PENDING


def test_a_row_for_a_player_not_at_the_table_is_refused(secretary_client, tables):
    """A score field of a fourth player at a table of 3 is no field of that row: ignored,
    never stored; a row naming a game of another round saves nothing."""
    round_obj, games = tables
    data = post_data(games, [{}, {"score_a": 280, "score_b": 450, "score_c": 300, "score_d": 999}])
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    assert stored(games[1])[1] == [280, 450, 300]
    data = post_data(games, [{}, {"score_a": 1, "score_b": 2, "score_c": 3}])
    data["form-1-game"] = 10**9
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    assert "niet in deze ronde" in response.content.decode()


def test_correction_needs_a_reason_and_changed_meanwhile_keeps_the_typed(secretary_client, tables):
    round_obj, games = tables
    first = {"score_a": 300, "score_b": 412, "score_c": 300, "score_d": 250}
    assert (
        secretary_client.post(results_url(round_obj), post_data(games, [first, {}])).status_code
        == 302
    )
    corrected = {**first, "score_d": 260}
    response = secretary_client.post(results_url(round_obj), post_data(games, [corrected, {}]))
    assert "geef een reden voor de correctie" in response.content.decode()
    assert stored(games[0])[1] == [300, 412, 300, 250]
    # Shown at version v, changed by another device since: marked, kept as typed.
    stale = post_data(games, [{**corrected, "reason": "telfout"}, {}])
    stale["form-0-version"] = int(stale["form-0-version"]) - 1
    stale["form-0-shown"] = "normal::::"
    response = secretary_client.post(results_url(round_obj), stale)
    assert response.status_code == 200
    html = response.content.decode()
    assert "in de tussentijd" in html
    assert 'value="260"' in row_of(html, games[0])
    assert stored(games[0])[1] == [300, 412, 300, 250]


def test_the_correction_page_of_a_table(secretary_client, tables):
    round_obj, games = tables
    first = {"score_a": 300, "score_b": 412, "score_c": 300, "score_d": 250}
    secretary_client.post(results_url(round_obj), post_data(games, [first, {}]))
    game = Game.objects.get(pk=games[0].pk)
    url = reverse("game_correct", kwargs={**round_obj.competition.url_kwargs, "game_id": game.pk})
    html = secretary_client.get(url).content.decode()
    assert "Bordpunten van Do" in html and 'value="250"' in html
    data = {**first, "score_d": 260, "kind": "normal", "reason": "telfout", "version": game.version}
    assert secretary_client.post(url, data).status_code == 302
    assert stored(game)[1] == [300, 412, 300, 260]


def test_queries_do_not_grow_with_the_tables(secretary_client, competition, club):
    from competition.models import Competition
    from tests.factories import CompetitionFactory

    small = seated_round(competition, [(0, 1, 2, 3), (4, 5, 6)])[0]
    other = CompetitionFactory(club=club, name="Groot", slug="groot")
    players = [PlayerFactory() for _ in range(40)]
    other.rules = Competition.Rules.STANDARD
    other.save()
    for player in players:
        EntrantFactory(competition=other, player=player)
    large = round_create(competition=other)
    round_set_pairings(
        round=large,
        pairings=[
            PairingSpec(players=tuple(p.pk for p in players[i : i + 4]), table=i // 4 + 1)
            for i in range(0, 40, 4)
        ],
    )
    queries(secretary_client, results_url(small))  # the club's status read into the cache
    assert len(queries(secretary_client, results_url(small))) == len(
        queries(secretary_client, results_url(large))
    )
