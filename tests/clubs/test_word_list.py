"""A club's own word list (clubs/word_lists.py): built by `bordpunt lexicon` into the home,
chosen on the club's settings page, and then played by the club's new games and duplicate
evenings, on the real engine; games and evenings made before keep the shipped list."""

from pathlib import Path

import pytest
from django.urls import reverse

from bordpunt.cli import main
from clubs.models import HistoryEntry
from competition.services.rounds import round_create, round_set_pairings
from config.home import Home
from duplicate.models import DuplicateCompetition, Participant
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from games.analysis import game_review
from games.engine import replay
from games.moves import move_add
from games.services import PairingSpec
from tests.factories import PlayerFactory
from tests.word_lists import club_list

pytestmark = pytest.mark.django_db

#: SNAKE and XQZW are in neither shipped list; KAAS is in both.
CLUB_LIST = club_list("# De lijst van De Goudse Letters", "kaas", "snake", "xqzw")


@pytest.fixture
def home(tmp_path, settings) -> Home:
    """A home whose club list `goudse-lijst` was built by `bordpunt lexicon`, the folder
    the site reads the lists from."""
    home = Home(tmp_path / "home")
    source = tmp_path / "Goudse Lijst.txt"
    source.write_text(CLUB_LIST, encoding="utf-8")
    assert main(["--lang", "nl", "--home", str(home.root), "lexicon", str(source)]) == 0
    settings.WORD_LISTS_DIR = home.lexicons
    return home


def settings_page(client, club):
    return reverse("club_settings", kwargs={"club": club.slug})


def choose(client, club, word_list: str):
    return client.post(
        settings_page(client, club), {"slip_notation": club.slip_notation, "word_list": word_list}
    )


def test_the_command_builds_the_list_and_says_how_to_choose_it(home, tmp_path, capsys):
    source = tmp_path / "Één lijst.txt"
    source.write_text(club_list("kaas", "snake"), encoding="utf-8")
    assert main(["--lang", "nl", "--home", str(home.root), "lexicon", str(source)]) == 0
    assert "Woordenlijst een-lijst gemaakt: 1002 woorden" in capsys.readouterr().out
    assert sorted(path.name for path in home.lexicons.iterdir()) == [
        "een-lijst.dawg",
        "een-lijst.marisa",
        "goudse-lijst.dawg",
        "goudse-lijst.marisa",
    ]


def test_the_secretary_chooses_the_list_and_the_history_keeps_it(home, secretary_client, club):
    page = secretary_client.get(settings_page(secretary_client, club)).content.decode()
    assert 'value="goudse-lijst"' in page and "bordpunt lexicon" in page
    response = choose(secretary_client, club, "goudse-lijst")
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.word_list == "goudse-lijst"
    entry = HistoryEntry.objects.get(club=club, action="club.change")
    assert (entry.before, entry.after) == ({"word_list": ""}, {"word_list": "goudse-lijst"})


def test_a_list_that_is_not_there_is_refused_and_nothing_changes(home, secretary_client, club):
    response = choose(secretary_client, club, "../../etc/passwd")
    assert response.status_code == 200
    assert "is geen beschikbare keuze" in response.content.decode()
    club.refresh_from_db()
    assert club.word_list == "" and not HistoryEntry.objects.filter(club=club).exists()


def test_without_lists_the_settings_page_offers_no_choice(
    secretary_client, club, settings, tmp_path
):
    settings.WORD_LISTS_DIR = tmp_path / "nothing"
    page = secretary_client.get(settings_page(secretary_client, club)).content.decode()
    assert 'name="word_list"' not in page


def test_a_missing_list_is_said_on_the_settings_page_and_the_shipped_list_stands_in(
    home, secretary_client, club, competition, four_entrants
):
    club.word_list = "goudse-lijst"
    club.save()
    (game,) = pair(competition, four_entrants[:2])
    for path in home.lexicons.iterdir():
        path.unlink()  # the home restored on another laptop, its lexicons/ left behind
    page = secretary_client.get(settings_page(secretary_client, club)).content.decode()
    assert 'id="word-list-missing"' in page and "goudse-lijst (ontbreekt)" in page
    row = move_add(game=game, notation="8H SNAKE", by=None)
    assert row.warnings == [{"code": "not_in_lexicon", "params": {"word": "SNAKE"}}]


def pair(competition, players):
    round_obj = round_create(competition=competition)
    return round_set_pairings(
        round=round_obj, pairings=[PairingSpec(players=tuple(p.pk for p in players), table=1)]
    )


def test_the_clubs_games_play_with_its_list_and_earlier_games_keep_theirs(
    home, club, competition, four_entrants
):
    anna, bert, cor, dirk = four_entrants
    (before,) = pair(competition, [anna, bert])
    club.word_list = "goudse-lijst"
    club.save()
    (after,) = pair(competition, [cor, dirk])
    assert before.rules["word_list"] == "" and after.rules["word_list"] == "goudse-lijst"

    # The real engine: SNAKE is a word of the club's list only; the shipped list warns.
    # S2 N1 A1 K3 E on L8 (DL) 2 = 9, on H8 (DW): 18.
    played = move_add(game=after, notation="8H SNAKE", by=None)
    assert (played.warnings, played.score) == ([], 18)
    shipped = move_add(game=before, notation="8H SNAKE", by=None)
    assert shipped.warnings == [{"code": "not_in_lexicon", "params": {"word": "SNAKE"}}]
    # A word of the shipped list that the club's list does not have is not a word here.
    later = move_add(game=after, notation="H8 .ALA", by=None)
    assert later.warnings == [{"code": "not_in_lexicon", "params": {"word": "SALA"}}]


@pytest.fixture
def duplicate(club):
    competition = DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules="standard"
    )
    players = [PlayerFactory(name=name) for name in ("Anna", "Bert")]
    for player in players:
        Participant.objects.create(competition=competition, player=player)
    return competition, players


def test_the_clubs_duplicate_evening_scores_a_word_of_its_list_only(
    home, club, duplicate, secretary
):
    competition, (anna, bert) = duplicate
    shipped = evening_create(competition=competition, number=1, by=secretary)
    club.word_list = "goudse-lijst"
    club.save()
    own = evening_create(competition=competition, number=2, by=secretary)
    assert (shipped.word_list, own.word_list) == ("", "goudse-lijst")
    entry = HistoryEntry.objects.get(object_type="duplicate_evening", object_id=own.pk)
    assert entry.after["word_list"] == "goudse-lijst"

    # The same rack on both evenings: A A E K N S and a blank.
    on_shipped = turn_draw(evening=shipped, tiles="KAAS?EN", by=secretary)
    on_own = turn_draw(evening=own, tiles="KAAS?EN", by=secretary)
    # The own list's tops come from its words alone: SNAKE is the best it has, from D8
    # (DL): S4 N1 A1 K3 E1 = 10, E on H8 (DW): 20.
    assert on_shipped.top_score == 74
    assert on_own.top_score == 20

    # 20 with the club's list; with the shipped one SNAKE is no word.
    slip = slip_submit(turn=on_own, player_id=anna.pk, text="8D SNAKE", claimed=20, by=anna)
    assert (slip.score, slip.reason_code, slip.is_top) == (20, "", True)
    refused = slip_submit(turn=on_shipped, player_id=anna.pk, text="8D SNAKE", claimed=20, by=anna)
    assert (refused.score, refused.reason_code) == (0, "not_in_lexicon")
    # KAAS is in both lists: scored on both evenings.
    for turn in (on_shipped, on_own):
        assert slip_submit(turn=turn, player_id=bert.pk, text="8H KAAS", by=bert).score == 14

    closed = turn_choose_top(turn=on_own, by=secretary)
    assert (closed.top, closed.total) == ("8D SNAKE", 20)


def test_a_list_with_a_name_that_cannot_be_one_is_refused(tmp_path, capsys):
    source = tmp_path / "___.txt"
    source.write_text("kaas\n")
    home = tmp_path / "home"
    assert main(["--lang", "nl", "--home", str(home), "lexicon", str(source)]) == 2
    assert "Een woordenlijst kan niet ___ heten" in capsys.readouterr().err
    assert not (home / "lexicons").exists()


def test_the_list_built_again_is_read_anew(home, club, competition, four_entrants, tmp_path):
    """`bordpunt lexicon` again under the same name, while the server runs: the next game
    read sees the new words (the files are opened by name, modified time and size)."""
    club.word_list = "goudse-lijst"
    club.save()
    (game,) = pair(competition, four_entrants[:2])
    assert move_add(game=game, notation="8H SNAKE", by=None).warnings == []
    source = Path(tmp_path / "Goudse Lijst.txt")
    source.write_text(club_list("kaas", "snakes"), encoding="utf-8")
    assert main(["--lang", "nl", "--home", str(home.root), "lexicon", str(source)]) == 0
    (game,) = pair(competition, four_entrants[2:])
    row = move_add(game=game, notation="8H SNAKE", by=None)
    assert row.warnings == [{"code": "not_in_lexicon", "params": {"word": "SNAKE"}}]


def test_the_competitions_pages_say_the_clubs_list(home, client, club, competition, duplicate):
    duplicate_competition, _ = duplicate
    pages = (competition.get_absolute_url(), duplicate_competition.get_absolute_url())
    for address in pages:
        assert 'id="club-word-list"' not in client.get(address).content.decode()
    club.word_list = "goudse-lijst"
    club.save()
    for address in pages:
        assert "woordenlijst goudse-lijst" in client.get(address).content.decode(), address


def test_the_analysis_finds_the_best_plays_in_the_clubs_list(
    home, club, competition, four_entrants
):
    anna, bert, cor, dirk = four_entrants
    (shipped,) = pair(competition, [anna, bert])
    club.word_list = "goudse-lijst"
    club.save()
    (own,) = pair(competition, [cor, dirk])
    for game in (shipped, own):
        move_add(game=game, notation="8H KAAS", rack="AAEKNSTU", by=None)
    best = {}
    for game in (shipped, own):
        moves = list(game.moves.order_by("number"))
        (turn,) = game_review(game, moves, replay(game, moves)).turns
        best[game] = turn.best_word
    # From A A E K N S T U the club's list has KAAS and SNAKE: SNAKE scores more.
    assert best[own] == "SNAKE"
    assert best[shipped] not in {"SNAKE", "KAAS"}  # a word of the shipped list
