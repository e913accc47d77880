"""CSV import of results: every outcome, players matched by name, all or nothing.

Tested through the service and the `import_results` command; the upload page's preview and
confirmation are in test_import_preview.py.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.models import HistoryEntry, Membership, Player
from competition.core.results_csv import MAX_FILE_BYTES, MAX_ROWS
from competition.models import Entrant, Round
from competition.services import CompetitionError
from competition.services.entrants import entrant_add
from competition.services.importing import (
    MAX_QUESTIONS,
    ImportDecisions,
    ImportPlanChanged,
    ImportUnknownNames,
    ImportWouldReplace,
    results_import_apply,
    results_import_plan,
    results_import_read,
)
from competition.services.rounds import round_create, round_set_pairings
from games.models import Game, Outcome, Seat
from games.moves import game_set_starter, move_add
from games.services import ResultInput, game_record_result
from tests.factories import EntrantFactory, MembershipFactory, PlayerFactory
from tests.seats import Winner, pair, pair_spec, seated, winner

pytestmark = pytest.mark.django_db

HEADER = "round,table,player,opponent,score,opponent_score,outcome\n"

GOOD = HEADER + (
    "1,1,anna,Bert,320,290,normal\n"
    "1,2,Cor,Dirk,300,350,flag:player\n"
    "1,,Eva,,,,bye\n"
    "1,1,Bert,Anna,290,320,normal\n"  # the same game told by Bert: accepted
    "1,2,Dirk,Cor,350,300,flag:opponent\n"  # mirrored flag fall
    "2,1,Anna,Cor,250,300,flag:opponent\n"
    "2,2,Bert,Eva,,,forfeit:player\n"
    "2,,Dirk,,,,bye\n"
    "3,1,Dirk,ANNA,,,forfeit:opponent\n"
    "3,2,Bert,Cor,,,annulled\n"
    "3,3,Eva,Dirk2,,,forfeit:both\n"
)

MODELS = (Player, Membership, Entrant, Round, Game, Seat, HistoryEntry)


def results_import(*, competition, data: bytes, by=None, create=True, replace=False):
    decisions = ImportDecisions(create_unknown=create, replace=replace)
    return results_import_apply(competition=competition, data=data, decisions=decisions, by=by)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def known_players(club, other_club):
    """Anna is a member of the club; a Bert plays for another club only."""
    anna = PlayerFactory(name="Anna")
    MembershipFactory(club=club, player=anna)
    other_bert = PlayerFactory(name="Bert")
    MembershipFactory(club=other_club, player=other_bert)
    return anna, other_bert


def result_of(competition, number, first, second):
    games = Game.objects.filter(round__competition=competition, round__number=number)
    return pair(seated(games, first, second).get())


def assert_good_file_imported(competition, anna, other_bert):
    club_players = Player.objects.filter(entries__competition=competition)
    assert sorted(club_players.values_list("name", flat=True)) == [
        "Anna",
        "Bert",
        "Cor",
        "Dirk",
        "Dirk2",
        "Eva",
    ]
    assert all(
        Membership.objects.filter(club=competition.club, player=p).exists() for p in club_players
    )
    # "anna" and "ANNA" are the club's Anna; the other club's Bert is not matched.
    assert club_players.get(name="Anna") == anna
    assert club_players.get(name="Bert") != other_bert
    assert Player.objects.filter(name="Bert").count() == 2

    assert result_of(competition, 1, "Anna", "Bert") == (Outcome.NORMAL, Winner.A, 320, 290)
    # Cor's flag fell: Dirk wins.
    assert result_of(competition, 1, "Cor", "Dirk") == (Outcome.FLAG_FALL, Winner.B, 300, 350)
    # The opponent's flag fell: Anna wins with the lower score.
    assert result_of(competition, 2, "Anna", "Cor") == (Outcome.FLAG_FALL, Winner.A, 250, 300)
    assert result_of(competition, 2, "Bert", "Eva") == (Outcome.FORFEIT, Winner.B, None, None)
    assert result_of(competition, 3, "Dirk", "Anna") == (Outcome.FORFEIT, Winner.A, None, None)
    assert result_of(competition, 3, "Bert", "Cor") == (Outcome.ANNULLED, Winner.NONE, None, None)
    assert result_of(competition, 3, "Eva", "Dirk2") == (Outcome.FORFEIT, Winner.NONE, None, None)
    byes = Game.objects.filter(round__competition=competition, outcome=Outcome.BYE)
    assert sorted(byes.values_list("round__number", "seats__player__name")) == [
        (1, "Eva"),
        (2, "Dirk"),
    ]
    assert all(len(bye.seat_list) == 1 for bye in byes.with_seats())

    # Mirrored rows made no second game: 3 + 3 + 3 games.
    assert Game.objects.filter(round__competition=competition).count() == 9
    rounds = competition.rounds.order_by("number")
    assert [(r.number, r.status) for r in rounds] == [
        (1, Round.Status.FINISHED),
        (2, Round.Status.FINISHED),
        (3, Round.Status.FINISHED),
    ]
    joined = dict(competition.entrants.values_list("player__name", "joined_round"))
    assert joined == {"Anna": 1, "Bert": 1, "Cor": 1, "Dirk": 1, "Eva": 1, "Dirk2": 3}


def test_good_file_with_every_outcome(competition, known_players):
    anna, other_bert = known_players
    summary = results_import(competition=competition, data=GOOD.encode(), by=None)
    assert (summary.rounds, summary.games, summary.new_players) == (3, 9, 5)
    assert_good_file_imported(competition, anna, other_bert)
    results = HistoryEntry.objects.filter(action__startswith="result.")
    assert set(results.values_list("reason_code", "reason")) == {("csv_import", "")}
    (summary,) = HistoryEntry.objects.filter(action="import.csv")
    assert summary.after["rounds_created"] == [1, 2, 3]
    assert (summary.after["games"], results.count()) == (9, 7)  # two byes: no result
    assert len(summary.after["players_created"]) == 5


def test_semicolon_separated_with_bom_and_spaces(competition, known_players):
    anna, other_bert = known_players
    data = "\ufeff" + GOOD.replace(",", " ; ")
    summary = results_import(competition=competition, data=data.encode("utf-8"), by=None)
    assert summary.games == 9
    assert_good_file_imported(competition, anna, other_bert)


def test_a_file_not_in_utf8_is_refused_with_its_line(competition):
    data = (HEADER + "1,1,Renée,Zoë,300,200,normal\n").replace(",", ";").encode("cp1252")
    before = counts()
    with translation.override("nl"), pytest.raises(CompetitionError) as caught:
        results_import(competition=competition, data=data, by=None)
    with translation.override("nl"):
        assert str(caught.value.message) == (
            "Regel 2: het bestand is niet als UTF-8 opgeslagen (een letter als é is niet te "
            "lezen). Sla het op als „CSV UTF-8” en lever het opnieuw aan."
        )
    assert counts() == before


def test_import_completes_existing_pairings(competition, known_players):
    anna, _other_bert = known_players
    bert = PlayerFactory(name="Bert")
    for player in (anna, bert):
        entrant_add(competition=competition, player=player)
    round_obj = round_create(competition=competition)
    (game,) = round_set_pairings(round=round_obj, pairings=[pair_spec(anna.pk, bert.pk, 1)])
    # Told from Bert's side, whose flag fell.
    data = HEADER + "1,1,Bert,Anna,290,320,flag:player\n"
    summary = results_import(competition=competition, data=data.encode(), by=None)
    assert (summary.games, summary.new_players) == (1, 0)
    game.refresh_from_db()
    assert (game.players[0], game.outcome, winner(game), game.scores[0], game.scores[1]) == (
        anna,
        Outcome.FLAG_FALL,
        Winner.A,
        320,
        290,
    )
    assert Game.objects.filter(round=round_obj).count() == 1


BAD_FILES = {
    "bad number": (
        HEADER + "1,1,Anna,Bert,320,290,normal\n2,1,Anna,Bert,3x0,290,normal\n",
        "Line 3: “score” must be a whole number from -999 to 9999, not “3x0”.",
    ),
    "bad round": (
        HEADER + "een,1,Anna,Bert,320,290,normal\n",
        "Line 2: “round” must be a whole number from 1 to 32767, not “een”.",
    ),
    "unknown outcome": (
        HEADER + "1,1,Anna,Bert,320,290,normal\n1,2,Cor,Dirk,1,2,resigned\n",
        "Line 3: unknown outcome “resigned”;",
    ),
    "missing opponent": (
        HEADER + "1,1,Anna,Bert,320,290,normal\n1,2,Cor,,320,290,normal\n",
        "Line 3: the opponent is missing (only a bye has none).",
    ),
    "missing score": (
        HEADER + "1,1,Anna,Bert,320,,normal\n",
        "Line 2: “opponent_score” is empty.",
    ),
    "player twice in a round": (
        HEADER + "1,1,Anna,Bert,320,290,normal\n1,2,Cor,Dirk,1,2,normal\n1,3,anna,Eva,1,2,normal\n",
        "Line 4: Anna already plays in round 1 (line 2).",
    ),
    "missing column": (
        "round,table,player,opponent,score,outcome\n1,1,Anna,Bert,320,normal\n",
        "Line 1: the columns opponent_score are missing.",
    ),
    "table twice in a round": (
        HEADER + "1,1,Anna,Bert,320,290,normal\n1,1,Cor,Dirk,300,200,normal\n",
        "Line 3: table 1 appears twice in round 1.",
    ),
    "score out of range": (
        HEADER + "1,1,Anna,Bert,320,290,normal\n2,1,Cor,Dirk,10000,200,normal\n",
        "Line 3: “score” must be a whole number from -999 to 9999, not “10000”.",
    ),
    "forfeit with scores": (
        HEADER + "1,1,Anna,Bert,320,290,forfeit:player\n",
        "Line 2: a game with outcome “forfeit:player” has no board points;",
    ),
    "bye with a score": (
        HEADER + "1,,Anna,,320,,bye\n",
        "Line 2: a game with outcome “bye” has no board points;",
    ),
    "round beyond the database's range": (
        HEADER + "100000000000000000000,1,Anna,Bert,320,290,normal\n",
        "Line 2: “round” must be a whole number from 1 to 32767, not “100000000000000000000”.",
    ),
    "a round of 5000 digits": (
        HEADER + "9" * 5000 + ",1,Anna,Bert,320,290,normal\n",
        "Line 2: “round” must be a whole number from 1 to 32767, not “" + "9" * 30 + "…”.",
    ),
    "a score of 5000 digits": (
        HEADER + "1,1,Anna,Bert,-" + "9" * 5000 + ",290,normal\n",
        "Line 2: “score” must be a whole number from -999 to 9999, not “-" + "9" * 29 + "…”.",
    ),
    "round 70000": (
        HEADER + "70000,1,Anna,Bert,320,290,normal\n",
        "Line 2: “round” must be a whole number from 1 to 32767, not “70000”.",
    ),
    "table beyond the database's range": (
        HEADER + "1,100000000000000000000,Anna,Bert,320,290,normal\n",
        "Line 2: “table” must be a whole number from 1 to 32767, not “100000000000000000000”.",
    ),
    "round zero": (
        HEADER + "0,1,Anna,Bert,320,290,normal\n",
        "Line 2: “round” must be a whole number from 1 to 32767, not “0”.",
    ),
    "superscript digit": (
        HEADER + "²,1,Anna,Bert,320,290,normal\n",
        "Line 2: “round” must be a whole number from 1 to 32767, not “²”.",
    ),
    "Arabic-Indic digit": (
        HEADER + "1,1,Anna,Bert,٣٠٠,290,normal\n",
        "Line 2: “score” must be a whole number from -999 to 9999, not “٣٠٠”.",
    ),
    "NUL byte in a name": (
        HEADER + "1,1,Anke\x00,Bert,320,290,normal\n",
        "Line 2: “player” contains a control character (“Anke\ufffd”).",
    ),
    "control character in the opponent": (
        HEADER + "1,1,Anke,Be\x07rt,320,290,normal\n",
        "Line 2: “opponent” contains a control character (“Be\ufffdrt”).",
    ),
    "name over the 120 characters of the model": (
        HEADER + "1,1," + "A" * 121 + ",Bert,320,290,normal\n",
        "Line 2: the name in “player” is longer than 120 characters.",
    ),
    "bye with an opponent": (
        HEADER + "1,,Anna,Bert,,,bye\n",
        "Line 2: a bye has no opponent.",
    ),
    "no rows": (HEADER, "The file holds no results."),
}


@pytest.mark.parametrize(("data", "message"), BAD_FILES.values(), ids=BAD_FILES.keys())
def test_bad_file_is_refused_entirely(competition, known_players, data, message):
    before = counts()
    with translation.override("en"):
        with pytest.raises(CompetitionError) as caught:
            results_import(competition=competition, data=data.encode(), by=None)
        messages = [str(m) for m in caught.value.errors or [caught.value.message]]
    assert any(text.startswith(message) for text in messages), messages
    assert counts() == before


def test_every_bad_line_is_reported(competition):
    data = HEADER + "x,1,Anna,Bert,1,2,normal\n1,2,Cor,Dirk,1,2,resign\n1,3,Eva,,1,2,normal\n"
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import(competition=competition, data=data.encode(), by=None)
    with translation.override("en"):
        lines = [str(message).split(":")[0] for message in caught.value.errors]
    assert lines == ["Line 2", "Line 3", "Line 4"]


def test_errors_are_dutch_by_default(competition):
    with translation.override("nl"), pytest.raises(CompetitionError) as caught:
        results_import(
            competition=competition, data=(HEADER + "1,1,A,B,1,2,zomaar\n").encode(), by=None
        )
    with translation.override("nl"):
        assert str(caught.value.errors[0]).startswith("Regel 2: onbekende afloop “zomaar”")


# --- the command -------------------------------------------------------------------------


def test_import_results_command(competition, known_players, tmp_path, capsys):
    anna, other_bert = known_players
    path = tmp_path / "uitslagen.csv"
    path.write_text(GOOD, encoding="utf-8")
    call_command(
        "import_results",
        f"{competition.club.slug}/{competition.slug}",
        str(path),
        "--create-players",
    )
    out = capsys.readouterr().out
    assert "Imported 9 games in 3 rounds (0 results replaced); 5 new players." in out
    assert_good_file_imported(competition, anna, other_bert)


def test_import_results_command_refuses_a_bad_file(competition, known_players, tmp_path, capsys):
    path = tmp_path / "uitslagen.csv"
    path.write_text(BAD_FILES["unknown outcome"][0], encoding="utf-8")
    before = counts()
    with translation.override("en"), pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_results", competition.slug, str(path))
    assert "Line 3: unknown outcome “resigned”" in capsys.readouterr().err
    assert counts() == before


def test_import_results_command_unknown_competition_or_file(competition, tmp_path):
    with pytest.raises(CommandError, match="No competition"):
        call_command("import_results", "bestaat-niet", str(tmp_path / "x.csv"))
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_results", competition.slug, str(tmp_path / "x.csv"))


# --- the upload page (the first step; the preview is in test_import_preview.py) ------------


def upload(client, competition, text: str):
    url = reverse("results_import", kwargs=competition.url_kwargs)
    file = SimpleUploadedFile("uitslagen.csv", text.encode(), content_type="text/csv")
    return client.post(url, {"file": file})


def test_upload_page_shows_errors_and_imports_nothing(secretary_client, english, competition):
    before = counts()
    response = upload(secretary_client, competition, BAD_FILES["bad round"][0])
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nothing was imported" in html
    assert "Line 2: “round” must be a whole number from 1 to 32767, not “een”." in html
    assert counts() == before


def test_a_file_that_reads_but_cannot_be_imported_shows_why(
    secretary_client, english, competition, known_players
):
    before = counts()
    response = upload(secretary_client, competition, BAD_FILES["player twice in a round"][0])
    html = response.content.decode()
    assert "This file cannot be imported as it is" in html
    assert "Line 4: Anna already plays in round 1 (line 2)." in html
    assert 'name="confirm"' not in html
    assert counts() == before


# --- reading: dialect, quoting, limits (no database) --------------------------------------


@pytest.mark.parametrize("separator", [",", ";"])
def test_doubled_quotes_stay_one_quote(separator):
    line = '1,1,"Jan ""de Rots"" Bos","Bos, Anke",320,290,normal\n'
    if separator == ";":
        line = line.replace(",", ";").replace("Bos; Anke", "Bos, Anke")
    (row,) = results_import_read(data=(HEADER.replace(",", separator) + line).encode())
    assert (row.player, row.opponent) == ('Jan "de Rots" Bos', "Bos, Anke")


def test_semicolons_are_read_from_the_header_even_with_commas_in_names():
    data = HEADER.replace(",", ";") + "1;1;Bos, Jan;Vries, Anke de;320;290;normal\r\n"
    (row,) = results_import_read(data=("\ufeff" + data).encode())
    assert (row.round, row.player, row.opponent, row.score) == (
        1,
        "Bos, Jan",
        "Vries, Anke de",
        320,
    )


def test_the_error_list_is_capped_with_a_count():
    data = HEADER + "x,1,Anna,Bert,1,2,normal\n" * 500
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import_read(data=data.encode())
    with translation.override("en"):
        messages = [str(message) for message in caught.value.errors]
    assert len(messages) == 51
    assert messages[0].startswith("Line 2: “round”")
    assert messages[49].startswith("Line 51: “round”")
    assert messages[50] == "… and 450 more errors"


def test_a_file_over_the_size_limit_is_refused_unread():
    data = (HEADER + "1,1,Anna,Bert,1,2,normal\n").encode() + b" " * MAX_FILE_BYTES
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import_read(data=data)
    with translation.override("en"):
        assert str(caught.value.message) == (
            "The file is larger than 2 MB; a results file is much smaller."
        )


def test_a_file_over_the_row_limit_is_refused():
    data = HEADER + "".join(f"{n},1,A{n},B{n},1,2,normal\n" for n in range(1, MAX_ROWS + 2))
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import_read(data=data.encode())
    with translation.override("en"):
        assert str(caught.value.errors[0]) == (
            f"Line {MAX_ROWS + 2}: a file holds at most {MAX_ROWS} results; split it."
        )


def test_a_name_of_exactly_120_characters_is_accepted():
    (row,) = results_import_read(data=(HEADER + "1,1," + "A" * 120 + ",B,1,2,normal\n").encode())
    assert len(row.player) == 120


# --- planning: names, replacements, rounds ------------------------------------------------


def test_a_typo_is_refused_with_the_closest_names(competition, tmp_path, capsys):
    for name in ("Anke de Vries", "Bert Bos", "Jan Bos"):
        EntrantFactory(competition=competition, player=PlayerFactory(name=name))
        MembershipFactory(club=competition.club, player=Player.objects.get(name=name))
    data = HEADER + "1,1,Anke de Vreis,Bert Bos,320,290,normal\n"
    before = counts()
    with translation.override("en"), pytest.raises(ImportUnknownNames) as caught:
        results_import(competition=competition, data=data.encode(), create=False)
    with translation.override("en"):
        assert str(caught.value.errors[0]) == (
            "Line 2: “Anke de Vreis” is not an entrant; did you mean Anke de Vries?"
        )
    assert counts() == before

    path = tmp_path / "uitslagen.csv"
    path.write_text(data, encoding="utf-8")
    with translation.override("en"), pytest.raises(CommandError, match="--create-players"):
        call_command("import_results", competition.slug, str(path))
    assert "did you mean Anke de Vries" in capsys.readouterr().err
    assert counts() == before
    call_command("import_results", competition.slug, str(path), "--create-players")
    assert Player.objects.filter(name="Anke de Vreis").count() == 1


def test_the_decision_maps_a_name_to_an_existing_player(competition):
    anke, bert = PlayerFactory(name="Anke de Vries"), PlayerFactory(name="Bert")
    for player in (anke, bert):
        EntrantFactory(competition=competition, player=player)
        MembershipFactory(club=competition.club, player=player)
    data = (HEADER + "1,1,Anke de Vreis,Bert,320,290,normal\n").encode()
    rows = results_import_read(data=data)
    (question,) = results_import_plan(
        competition=competition, rows=rows, decisions=ImportDecisions()
    ).questions
    assert (question.name, question.default) == ("Anke de Vreis", "")
    assert [option.name for option in question.options] == ["Anke de Vries"]
    decisions = ImportDecisions(players={question.key: anke.pk})
    results_import_apply(competition=competition, data=data, decisions=decisions, by=None)
    assert result_of(competition, 1, "Anke de Vries", "Bert") == (
        Outcome.NORMAL,
        Winner.A,
        320,
        290,
    )
    assert not Player.objects.filter(name="Anke de Vreis").exists()


def test_a_player_of_another_club_cannot_be_chosen(competition, other_club):
    stranger = PlayerFactory(name="Anke")
    MembershipFactory(club=other_club, player=stranger)
    data = (HEADER + "1,1,Anke,Bert,320,290,normal\n").encode()
    decisions = ImportDecisions(players={"anke": stranger.pk}, create_unknown=True)
    before = counts()
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import_apply(competition=competition, data=data, decisions=decisions, by=None)
    with translation.override("en"):
        assert str(caught.value.message) == "Line 2: choose a player of the club for “Anke”."
    assert counts() == before


def test_a_club_member_who_is_not_an_entrant_is_entered(competition, known_players):
    anna, _other_bert = known_players
    results_import(competition=competition, data=(HEADER + "2,,Anna,,,,bye\n").encode())
    assert competition.entrants.get().player == anna
    assert competition.entrants.get().joined_round == 2


def test_a_reimport_changes_nothing_and_a_changed_result_needs_replace(
    competition, tmp_path, capsys
):
    results_import(competition=competition, data=GOOD.encode())
    before = counts()
    summary = results_import(competition=competition, data=GOOD.encode(), create=False)
    assert (summary.games, summary.replaced, summary.new_players) == (0, 0, 0)
    assert counts() == before

    changed = GOOD.replace("1,1,anna,Bert,320,290,normal", "1,1,anna,Bert,300,290,normal")
    changed = changed.replace("1,1,Bert,Anna,290,320,normal\n", "")
    with translation.override("en"), pytest.raises(ImportWouldReplace) as caught:
        results_import(competition=competition, data=changed.encode(), create=False)
    with translation.override("en"):
        assert [str(m) for m in caught.value.errors] == [
            "Line 2: round 1, anna – Bert: 320 – 290 → 300 – 290."
        ]
    assert counts() == before

    path = tmp_path / "uitslagen.csv"
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(CommandError, match="--replace"):
        call_command("import_results", competition.slug, str(path))
    assert "320 – 290 → 300 – 290" in capsys.readouterr().err
    assert counts() == before
    call_command("import_results", competition.slug, str(path), "--replace")
    assert "(1 results replaced)" in capsys.readouterr().out
    assert result_of(competition, 1, "anna", "Bert") == (Outcome.NORMAL, Winner.A, 300, 290)
    change = HistoryEntry.objects.filter(action="result.correct").latest("pk")
    assert (change.before["scores"][0], change.after["scores"][0]) == (320, 300)
    assert HistoryEntry.objects.latest("pk").action == "import.csv"
    assert counts() == before | {"HistoryEntry": before["HistoryEntry"] + 2}


def test_an_empty_draft_round_is_finished_by_the_import(
    competition, four_entrants, tmp_path, capsys
):
    round_obj = round_create(competition=competition)
    assert round_obj.status == Round.Status.DRAFT
    data = HEADER + "1,1,Anna,Bert,320,290,normal\n1,2,Cor,Dirk,300,200,normal\n"
    rows = results_import_read(data=data.encode())
    plan = results_import_plan(competition=competition, rows=rows, decisions=ImportDecisions())
    assert plan.rounds_published == (1,)
    path = tmp_path / "ronde1.csv"
    path.write_text(data, encoding="utf-8")
    call_command("import_results", competition.slug, str(path))
    assert "Published the draft round(s) 1, with their pairings." in capsys.readouterr().out
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.FINISHED


def test_a_draft_pairing_partly_imported_is_published_not_left_a_draft(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    data = HEADER + "1,1,Bert,Anna,290,320,normal\n"
    summary = results_import(competition=competition, data=data.encode(), create=False)
    assert summary.games == 1
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.PUBLISHED
    assert result_of(competition, 1, "Anna", "Bert") == (Outcome.NORMAL, Winner.A, 320, 290)


def test_a_game_against_the_pairing_is_refused(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    before = counts()
    data = HEADER + "1,3,Anna,Cor,320,290,normal\n"
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import(competition=competition, data=data.encode(), create=False)
    with translation.override("en"):
        assert [str(m) for m in caught.value.errors] == [
            "Line 2: round 1 already has a game Anna – Bert.",
            "Line 2: round 1 already has a game Cor – Dirk.",
        ]
    assert counts() == before


def test_a_round_beyond_the_tournament_is_refused(competition):
    competition.number_of_rounds = 2
    competition.save()
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import(competition=competition, data=(HEADER + "3,,Anna,,,,bye\n").encode())
    with translation.override("en"):
        assert str(caught.value.message) == "Line 2: this tournament has 2 rounds."


def test_a_result_saved_after_the_preview_refuses_the_confirmation(competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    round_obj = round_create(competition=competition)
    (game, _other) = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, dirk.pk, 2)],
    )
    data = (HEADER + "1,1,Anna,Bert,320,290,normal\n").encode()
    rows = results_import_read(data=data)
    seen = results_import_plan(competition=competition, rows=rows, decisions=ImportDecisions())
    assert [planned.action for planned in seen.games] == ["enter"]
    # Another secretary saves the same game in the meantime.
    game_record_result(game=game, result=ResultInput.of_pair("normal", 300, 310), by=None)
    before = counts()
    with pytest.raises(ImportPlanChanged) as caught:
        results_import_apply(
            competition=competition,
            data=data,
            decisions=ImportDecisions(replace=True),
            by=None,
            expected_fingerprint=seen.fingerprint,
        )
    assert [planned.action for planned in caught.value.plan.games] == ["replace"]
    assert caught.value.plan.fingerprint != seen.fingerprint
    assert counts() == before
    game.refresh_from_db()
    assert (game.scores[0], game.scores[1]) == (300, 310)


def test_a_game_entered_move_by_move_keeps_its_result(competition, four_entrants):
    anna, bert, _cor, _dirk = four_entrants
    round_obj = round_create(competition=competition)
    (game,) = round_set_pairings(round=round_obj, pairings=[pair_spec(anna.pk, bert.pk, 1)])
    game_set_starter(game=game, starter=0)
    move_add(game=game, notation="8H WOORD", by=None)
    before = counts()
    data = HEADER + "1,1,Anna,Bert,320,290,normal\n"
    with translation.override("en"), pytest.raises(CompetitionError) as caught:
        results_import(competition=competition, data=data.encode(), create=False, replace=True)
    with translation.override("en"):
        assert str(caught.value.message) == (
            "Line 2: Anna – Bert is entered move by move; its result follows from the moves "
            "and cannot be imported."
        )
    assert counts() == before


ODD_FILES = {
    "empty header": b"\n\n",
    "binary": bytes(range(256)) * 4,
    "NUL bytes only": b"\x00" * 1000,
    "a lone quote": (HEADER + '1,1,"Anna,Bert,1,2,normal\n').encode(),
    "a field over the csv module's limit": (
        HEADER + "1,1," + "A" * 200_000 + ",B,1,2,normal\n"
    ).encode(),
    "carriage returns only": HEADER.replace("\n", "\r").encode() + b"1,,Anna,,,,bye\r",
    "UTF-16": HEADER.encode("utf-16"),
    "header only, with BOM": b"\xef\xbb\xbf" + HEADER.encode(),
}


@pytest.mark.parametrize("data", ODD_FILES.values(), ids=ODD_FILES.keys())
def test_odd_files_are_refused_or_read_never_crash(competition, data):
    before = counts()
    try:
        results_import(competition=competition, data=data)
    except CompetitionError as error:
        assert all(str(message) for message in error.errors or [error.message])
    else:
        assert data.endswith(b"bye\r")  # the only readable one: a bye in Mac line endings
        assert counts()["Game"] == before["Game"] + 1


CELLS = st.one_of(
    st.sampled_from(["1", "-1", "0", "²", "٣", "99999999999", "", "normal", "bye", '"', '""']),
    st.text(max_size=12),
)


@settings(max_examples=150, deadline=None)
@given(
    separator=st.sampled_from([",", ";", "\t"]),
    rows=st.lists(st.lists(CELLS, min_size=0, max_size=9), max_size=6),
    tail=st.binary(max_size=20),
)
def test_reading_any_bytes_gives_rows_or_a_clean_refusal(separator, rows, tail):
    data = (HEADER.replace(",", separator) + "\n".join(separator.join(r) for r in rows)).encode()
    try:
        read = results_import_read(data=data + tail)
    except CompetitionError as error:
        assert all(str(message) for message in error.errors or [error.message])
    else:
        for row in read:
            assert 1 <= row.round <= 32767 and (row.table is None or 1 <= row.table <= 32767)
            assert row.player and len(row.player) <= 120 and row.player.isprintable()


def test_too_many_names_to_settle_are_refused_at_once(competition):
    data = HEADER + "".join(f"1,,Nieuw {n},,,,bye\n" for n in range(MAX_QUESTIONS + 1))
    rows = results_import_read(data=data.encode())
    with translation.override("en"):
        plan = results_import_plan(competition=competition, rows=rows, decisions=ImportDecisions())
        assert [str(error) for error in plan.errors] == [
            f"The file holds {MAX_QUESTIONS + 1} names that are not entrants; at most "
            f"{MAX_QUESTIONS} can be settled at once. Enter the players first, or import in parts."
        ]
