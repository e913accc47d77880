"""Every input parsed strictly, every refusal clean: numbers in URLs and query strings,
numbers and names in forms, duplicate short names, upload sizes, long error lists.

Each refusal is a 404 or a Dutch message naming the field, and changes nothing.
"""

import re
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.inputs import BIGINT_MAX, SMALLINT_MAX, capped
from clubs.models import HistoryEntry
from competition.models import Competition, Entrant, Group, Round
from competition.services.rounds import round_create
from games.models import Game
from tests.competition.test_results_entry import post_data, results_url, round_games  # noqa: F401
from tests.factories import GameFactory, competition_form_data

pytestmark = pytest.mark.django_db

OTHER_DIGITS = ["²", "①", "٣", "߃", "𝟗", "-1", "1.0", " 1", "0x1", "99999999999999999999"]


@pytest.fixture
def played(competition, two_rounds):
    """Two rounds with results (tests/conftest.py `two_rounds`)."""
    return competition


@pytest.mark.parametrize("name", ["standings", "standings_json", "standings_csv"])
@pytest.mark.parametrize("value", OTHER_DIGITS)
def test_after_round_in_other_scripts_shows_the_latest_standings(client, played, name, value):
    address = reverse(name, kwargs=played.url_kwargs)
    latest = shown(client.get(address))
    response = client.get(address, {"na": value})
    assert response.status_code == 200
    assert shown(response) == latest
    assert shown(client.get(address, {"na": "1"})) != latest


def shown(response):
    """The standings a response shows: the page's view, or the JSON or CSV itself."""
    return response.context["standings"]["view"] if response.context else response.content


@pytest.mark.parametrize("value", OTHER_DIGITS)
def test_replay_move_in_other_scripts_shows_the_whole_game(client, played, value):
    game = Game.objects.filter(round__competition=played).first()
    address = reverse("replay", kwargs={"game_id": game.pk})
    response = client.get(address, {"zet": value})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "address",
    [
        "/partij/99999999999999999999/",
        f"/partij/{BIGINT_MAX}/",
        f"/partij/{BIGINT_MAX + 1}.gcg",
        f"/partij/{BIGINT_MAX + 1}/bord/",
        "/partij/٣/",
        "/gouda/clubcompetitie/ronde/99999999999999999999/",
        f"/gouda/clubcompetitie/ronde/{SMALLINT_MAX}/",
        f"/gouda/clubcompetitie/ronde/{SMALLINT_MAX + 1}.json",
        f"/gouda/clubcompetitie/ronde/{SMALLINT_MAX + 1}/print/",
        f"/gouda/clubcompetitie/speler/{BIGINT_MAX + 1}/",
        f"/gouda/clubcompetitie/speler/{BIGINT_MAX}/",
    ],
)
def test_path_numbers_out_of_range_are_404(client, played, address):
    assert client.get(address).status_code == 404


def test_secretary_path_numbers_out_of_range_are_404(secretary_client, played):
    base = "/gouda/clubcompetitie/beheer"
    for address in (
        f"{base}/ronde/{SMALLINT_MAX + 1}/aanwezig/",
        f"{base}/ronde/99999999999999999999/uitslagen/",
        f"{base}/partij/{BIGINT_MAX + 1}/corrigeren/",
        f"{base}/partij/{BIGINT_MAX}/corrigeren/",
    ):
        assert secretary_client.get(address).status_code == 404, address


COMPETITION = competition_form_data()


def field_errors(response, field: str) -> list[str]:
    return [str(error) for error in response.context["form"].errors.get(field, [])]


def test_a_short_name_used_in_the_club_is_a_form_error(secretary_client, club, competition):
    create = reverse("competition_create", kwargs={"club": club.slug})
    response = secretary_client.post(create, {**COMPETITION, "slug": competition.slug})
    assert response.status_code == 200
    assert field_errors(response, "slug") == [
        "De club heeft al een competitie met deze korte naam."
    ]
    assert Competition.objects.filter(club=club).count() == 1
    # Editing another competition to take the same short name: the same message.
    assert secretary_client.post(create, COMPETITION).status_code == 302
    summer = Competition.objects.get(club=club, slug="zomer")
    edit = reverse("competition_edit", kwargs=summer.url_kwargs)
    response = secretary_client.post(edit, {**COMPETITION, "slug": competition.slug})
    assert response.status_code == 200
    assert field_errors(response, "slug")
    assert Competition.objects.get(pk=summer.pk).slug == "zomer"
    # Saving it under its own short name is fine.
    assert secretary_client.post(edit, COMPETITION).status_code == 302


def test_another_club_may_use_the_same_short_name(client, other_secretary, other_club, competition):
    client.force_login(other_secretary)
    create = reverse("competition_create", kwargs={"club": other_club.slug})
    response = client.post(create, {**COMPETITION, "slug": competition.slug})
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("number_of_rounds", "100000000000000000000", "hoogstens 1000"),
        ("number_of_rounds", "70000", "hoogstens 1000"),
        ("bye_match_points", "-1", "minstens 0"),
        ("forfeit_win_board_points", "99999999", "hoogstens 9999"),
        ("min_games", "1.5", "geheel getal"),
        ("min_games", "٣", "geheel getal"),
        ("name", "Anke\x00", "Null"),
        ("name", "Zomer\x01competitie", "geen stuurtekens"),
        ("name", "Zomer\u202ecompetitie", "geen stuurtekens"),
        ("name", "x" * 500, "niet meer dan 120"),
    ],
)
def test_competition_form_refuses_odd_values(secretary_client, club, field, value, message):
    create = reverse("competition_create", kwargs={"club": club.slug})
    response = secretary_client.post(create, {**COMPETITION, "kind": "tournament", field: value})
    assert response.status_code == 200
    errors = field_errors(response, field)
    assert errors and message in " ".join(errors), errors
    assert not Competition.objects.filter(club=club).exists()


@pytest.mark.parametrize("nesting", [10_000, 100_000])
def test_deeply_nested_club_variant_rules_are_a_form_error(secretary_client, club, nesting):
    create = reverse("competition_create", kwargs={"club": club.slug})
    data = {**COMPETITION, "rules": "custom", "custom_rules": "[" * nesting + "]" * nesting}
    response = secretary_client.post(create, data)
    assert response.status_code == 200
    assert field_errors(response, "custom_rules")
    assert not Competition.objects.filter(club=club).exists()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"new_player_name": "Anke\x00", "joined_round": 1}, "new_player_name", "Null"),
        ({"new_player_name": "An\x1bke", "joined_round": 1}, "new_player_name", "stuurtekens"),
        ({"new_player_name": "A" * 500, "joined_round": 1}, "new_player_name", "niet meer dan 120"),
        ({"new_player_name": "Anke", "joined_round": "70000"}, "joined_round", "hoogstens"),
        ({"new_player_name": "Anke", "joined_round": "1" * 30}, "joined_round", "hoogstens"),
        ({"new_player_name": "Anke", "joined_round": "0"}, "joined_round", "minstens"),
        ({"new_player_name": "Anke", "joined_round": "𝟗"}, "joined_round", "geheel getal"),
    ],
)
def test_entrant_form_refuses_odd_values(secretary_client, competition, data, field, message):
    response = secretary_client.post(reverse("entrants", kwargs=competition.url_kwargs), data)
    assert response.status_code == 200
    errors = field_errors(response, field)
    assert errors and message in " ".join(errors), errors
    assert not Entrant.objects.filter(competition=competition).exists()


def test_group_name_with_control_characters_is_refused(secretary_client, competition):
    address = reverse("entrants", kwargs=competition.url_kwargs)
    response = secretary_client.post(address, {"group-name": "A\x07"})
    assert response.status_code == 200
    assert response.context["group_form"].errors["name"]
    assert not Group.objects.exists()


@pytest.mark.parametrize(
    ("row", "label"),
    [
        ({"score_a": "100000000000000000000", "score_b": "300"}, "Bordpunten van An"),
        ({"score_a": "300", "score_b": "-100000"}, "Bordpunten van Bo"),
        ({"score_a": "300", "score_b": "٣"}, "Bordpunten van Bo"),
        ({"score_a": "300", "score_b": "200", "version": "99999999999999999999"}, "version"),
    ],
)
def test_results_page_refuses_out_of_range_scores(secretary_client, round_games, row, label):  # noqa: F811
    round_obj, games = round_games
    before = list(Game.objects.values_list("pk", "seats__score", "version").order_by("pk", "seats"))
    history = HistoryEntry.objects.count()
    data = post_data(games, [row, {}, {}])
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Er is niets opgeslagen" in html
    (error_line,) = re.findall(r'class="text-danger small row-error"[^>]*>(.*?)</td>', html, re.S)
    assert label.casefold() in error_line.casefold()
    assert (
        list(Game.objects.values_list("pk", "seats__score", "version").order_by("pk", "seats"))
        == before
    )
    assert HistoryEntry.objects.count() == history


def test_results_page_refuses_a_game_id_out_of_range(secretary_client, round_games):  # noqa: F811
    round_obj, games = round_games
    data = post_data(games, [{"score_a": "300", "score_b": "200"}, {}, {}])
    data["form-0-game"] = "9" * 30
    history = HistoryEntry.objects.count()
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    assert HistoryEntry.objects.count() == history


def test_pairing_form_refuses_huge_numbers(secretary_client, competition, four_entrants):
    round_obj = round_create(competition=competition)
    address = reverse("round_pairing", kwargs={**competition.url_kwargs, "number": 1})
    for data in (
        {"action": "generate", "system": "random", "seed": "9" * 40},
        {"action": "generate", "system": "swiss", "standings_round": "9" * 40},
        {"action": "swap", "player_x": "9" * 40, "player_y": "1"},
    ):
        assert secretary_client.post(address, data).status_code == 200, data
    assert not round_obj.games.exists()


def test_a_huge_upload_is_refused_before_it_is_read(secretary_client, competition):
    address = reverse("results_import", kwargs=competition.url_kwargs)
    big = SimpleUploadedFile("uitslagen.csv", b"1,1,Anna,Bert,300,200,normal\n" * 1_900_000)
    assert big.size > 50 * 1024 * 1024
    started = time.perf_counter()
    response = secretary_client.post(address, {"file": big})
    elapsed = time.perf_counter() - started
    assert response.status_code == 413
    html = response.content.decode()
    assert "Bestand te groot" in html
    assert "ten hoogste 2 MB" in html
    assert not Round.objects.filter(competition=competition).exists()
    print(f"50 MB upload refused in {elapsed:.2f} s")


def test_a_file_just_over_the_limit_is_a_form_error(secretary_client, competition, settings):
    address = reverse("results_import", kwargs=competition.url_kwargs)
    limit = settings.UPLOAD_MAX_SIZE
    data = b"x" * (limit + 1)
    response = secretary_client.post(address, {"file": SimpleUploadedFile("a.csv", data)})
    assert response.status_code == 200
    errors = field_errors(response, "file")
    assert errors == ["Het bestand is te groot (2,1 MB); een bestand mag ten hoogste 2 MB zijn."]
    game = GameFactory(
        round=round_create(competition=competition),
        players=[
            competition.club.members.create(name="Anna"),
            competition.club.members.create(name="Bert"),
        ],
    )
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    gcg = reverse("gcg_upload", kwargs={"game_id": game.pk})
    response = secretary_client.post(gcg, {"version": 0, "file": SimpleUploadedFile("a.gcg", data)})
    assert response.status_code == 200
    assert "te groot" in " ".join(field_errors(response, "file"))
    assert not game.moves.exists()


def test_long_error_lists_are_capped_with_a_count():
    errors = [f"regel {line}: fout" for line in range(5_000)]
    shown = capped(errors)
    assert shown[:50] == errors[:50]
    assert shown[50:] == ["… en nog 4.950 fouten"]
    assert capped(errors[:50]) == errors[:50]
    assert capped(errors[:52], limit=51)[-1] == "… en nog 1 fout"


def test_the_import_page_caps_its_error_list(secretary_client, competition):
    address = reverse("results_import", kwargs=competition.url_kwargs)
    header = b"round,table,player,opponent,score,opponent_score,outcome\n"
    rows = b"".join(b"x,1,Anna,Bert,300,200,normal\n" for _line in range(3_000))
    response = secretary_client.post(
        address, {"file": SimpleUploadedFile("uitslagen.csv", header + rows)}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "… en nog 2.950 fouten" in html
    assert html.count("<li>") <= 52
