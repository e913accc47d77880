"""TSH in and out: the .t format (pure), a hand-written TSH file, the export → import round
trip (same standings and pairings), the commands and the secretary's pages.

The round trip runs on SQLite and, in CI, on PostgreSQL (the suite runs on both).
"""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from clubs.models import HistoryEntry
from competition.models import Competition, Entrant, Round
from competition.selectors import standings_get
from competition.services import CompetitionError
from competition.services.rounds import round_create, round_set_pairings, round_set_status
from games.models import Game
from games.services import ResultInput, ResultKind, game_record_result
from hosting.middleware import club_status
from interchange.core import tsh
from interchange.tsh import tsh_export, tsh_import
from tests.factories import EntrantFactory, MembershipFactory, PlayerFactory, result_changes
from tests.seats import pair, pair_spec, seated

HAND_WRITTEN = Path(__file__).parent / "fixtures" / "tsh_hand_written.t"

# --- the format (no database) ----------------------------------------------------------


def test_a_line_with_names_of_several_words_and_extra_fields():
    (p,) = tsh.parse("Vries, Anke de  1650 2 0 3; 412 50; p12 1 0 2; off 1\n")
    assert (p.name, p.rating, p.opponents, p.scores) == (
        "Vries, Anke de",
        1650,
        (2, 0, 3),
        (412, 50),
    )
    assert p.field("p12") == ("1", "0", "2") and p.field("off") == ("1",)
    assert p.field("newr") is None


@pytest.mark.parametrize(
    "text, code, line",
    [
        ("", "no_players", 0),
        ("Anke de Vries\n", "no_rating", 1),
        ("Anke 0 2; 400\nBram 0 1; x\n", "bad_number", 2),
        ("Anke 0 2; 400\nBram 0 1; 9999999999999\n", "bad_number", 2),
        ("Anke 0 3; 400\nBram 0 0; 50\n", "bad_opponent", 1),
        ("Anke 0 1; 400\nBram 0 0; 50\n", "self", 1),
        ("Anke 0 2; 400 300\nBram 0 1; 350\n", "too_many_scores", 1),
        ("Anke 0 2; 400\nBram 0 0; 350\n", "not_mirrored", 1),
        ("Anke 0 2; 400\nBram 0 1;\n", "half_played", 1),
        ("Anke 0 2; 400\nanke 0 1; 350\n", "duplicate_name", 2),
        ("Anke 0 2; 400; bordpunt zz\nBram 0 1; 350\n", "bad_token", 1),
        ("Anke 0 0; 0; bordpunt xw:2\nBram 0 0; 0; bordpunt n\n", "not_mirrored", 1),
        ("Anke 0 2; 400\nBram 0 1" + " 0" * 100 + "; 350\n", "too_many_rounds", 2),
        ("".join(f"P{i} 0 0; 50\n" for i in range(1001)), "too_many_players", 0),
    ],
)
def test_broken_files_name_the_line(text, code, line):
    with pytest.raises(tsh.TshError) as err:
        tsh.to_tournament(tsh.parse(text))
    assert (err.value.code, err.value.line) == (code, line)


def test_the_hand_written_file_as_a_tournament():
    tournament = tsh.to_tournament(tsh.parse(HAND_WRITTEN.read_text()))
    assert tournament.rounds == 4 and len(tournament.players) == 5
    by_round = {}
    for game in tournament.games:
        by_round.setdefault(game.round, set()).add(
            (game.a, game.b, game.outcome, game.winner, game.score_a, game.score_b, game.starter)
        )
    assert by_round[2] == {
        (0, 2, "normal", "draw", 390, 390, "b"),  # Chew–Buddhdev, Buddhdev (p12 1) first
        (1, 4, "normal", "a", 455, 301, "a"),
        (3, None, "bye", "a", None, None, ""),
    }
    assert by_round[4] == {
        (0, 4, "", "", None, None, "b"),  # paired, not played; Smith goes first
        (1, 3, "", "", None, None, "b"),
        (2, None, "bye", "a", None, None, ""),  # Buddhdev's bye, already scored
    }


def test_a_tsh_forfeit_loss_without_an_opponent_is_reported():
    tournament = tsh.to_tournament(tsh.parse("Anke 0 0; -50\nBram 0 0; 50\n"))
    assert tournament.unmatched_forfeits == ((0, 1),)
    assert [(g.a, g.outcome) for g in tournament.games] == [(1, "bye")]


def test_names_tsh_would_misread_are_written_safely():
    tournament = tsh.Tournament(
        ("Jan 2", "Piet; Klaas"), 1, (tsh.TournamentGame(1, 0, 1, "normal", "a", 300, 200),)
    )
    text = tsh.write(tsh.from_tournament(tournament))
    assert tsh.to_tournament(tsh.parse(text)).players == ("Jan (2)", "Piet, Klaas")


# --- the service ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_hand_written_file_imports_with_its_standings(club, secretary):
    with translation.override("nl"):  # the history's reason is written in Dutch
        summary = tsh_import(
            club=club,
            data=HAND_WRITTEN.read_bytes(),
            name="Toernooi Gouda",
            rules="standard",
            by=secretary,
        )
    competition = summary.competition
    assert (summary.players, summary.rounds, summary.games) == (5, 4, 12)  # 2 games + 1 bye a round
    assert (competition.slug, competition.kind, competition.rules) == (
        "toernooi-gouda",
        Competition.Kind.TOURNAMENT,
        "standard",
    )
    assert competition.starters == Competition.Starters.ASSIGNED
    rows = {row.name: row for row in standings_get(competition).groups[""]}
    # Worked out by hand (win 2, draw 1, bye 2 match points and 0 board points):
    # Chew W 412-388, D 390-390, W 500-320         -> 5 mp, 1302 bp, 3 games
    # Holden L 388-412, W 455-301, bye             -> 4 mp,  843 bp, 3 games
    # Buddhdev L 350-402, D 390, W 420-380, bye    -> 5 mp, 1160 bp, 4 games
    # Castellano W 402-350, bye, L 320-500         -> 4 mp,  722 bp, 3 games
    # Smith bye, L 301-455, L 380-420              -> 2 mp,  681 bp, 3 games
    assert {name: (r.match_points, r.board_points, r.games) for name, r in rows.items()} == {
        "Chew, John": (5, 1302, 3),
        "Holden, Stewart": (4, 843, 3),
        "Buddhdev, Anand": (5, 1160, 4),
        "Castellano, Vince": (4, 722, 3),
        "Smith, Ann": (2, 681, 3),
    }
    statuses = dict(Round.objects.filter(competition=competition).values_list("number", "status"))
    assert statuses == {1: "finished", 2: "finished", 3: "finished", 4: "published"}
    game = seated(
        Game.objects.filter(round__competition=competition, round__number=1), "Chew, John"
    ).get()
    assert (game.players[1].name, game.starter, *pair(game)[2:]) == (
        "Holden, Stewart",
        0,
        412,
        388,
    )
    # Every result has its history entry: who, when, why.
    changes = result_changes(competition_id=competition.pk)
    assert changes.count() == 6
    reasons = set(changes.values_list("by", "reason_code", "reason"))
    assert reasons == {(secretary.pk, "tsh_import", "")}
    with translation.override("nl"):
        assert changes.first().reason_text == "geïmporteerd uit TSH"
    (created,) = HistoryEntry.objects.filter(
        competition_id=competition.pk, action="competition.create"
    )
    assert created.by == secretary and created.after["kind"] == "tournament"
    (imported,) = HistoryEntry.objects.filter(competition_id=competition.pk, action="import.tsh")
    assert imported.by == secretary and imported.object_label == competition.name
    assert (len(imported.after["players"]), imported.after["games"]) == (
        competition.entrants.count(),
        Game.objects.filter(round__competition=competition).count(),
    )
    seeds = Entrant.objects.filter(competition=competition).order_by("seed")
    assert seeds.values_list("player__name", flat=True).first() == "Chew, John"


@pytest.mark.django_db
def test_a_broken_file_creates_nothing(club):
    data = HAND_WRITTEN.read_bytes().replace(
        b"Smith, Ann           0 0 2 3 1", b"Smith, Ann 0 0 2 2 1"
    )
    with translation.override("nl"), pytest.raises(CompetitionError) as err:
        tsh_import(club=club, data=data, name="Kapot", by=None)
    # Buddhdev (line 3) has Smith in round 3, Smith now has Holden.
    assert str(err.value.message) == (
        "Regel 3: ronde 3: Smith, Ann heeft Buddhdev, Anand niet als tegenstander."
    )
    assert not Competition.objects.filter(slug="kapot").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data, message",
    [
        (b"Anke\x00 0 0; 50\n", "control character"),
        (b"\xff\xfe\x00\x01", "Expected NAME RATING"),
        (b"A" * 130 + b" 0 0; 50\n", "at most 120 characters"),
    ],
)
def test_odd_files_are_refused_cleanly(club, data, message):
    with translation.override("en"), pytest.raises(CompetitionError) as err:
        tsh_import(club=club, data=data, name="Odd", by=None)
    assert message in str(err.value.message)
    assert not Competition.objects.exists()


@pytest.mark.django_db
def test_a_short_name_already_in_use_is_refused(club, competition):
    with pytest.raises(CompetitionError):
        tsh_import(
            club=club, data=HAND_WRITTEN.read_bytes(), name="x", slug=competition.slug, by=None
        )
    assert Competition.objects.count() == 1


# --- export → import round trip -----------------------------------------------------------


def played_competition(competition, secretary):
    """Six players, four rounds with every kind of result, a pending round and a draft."""
    players = [PlayerFactory(name=name) for name in ("Anna", "Bert", "Cor", "Dirk", "Eva", "Femke")]
    for player in players:
        MembershipFactory(club=competition.club, player=player)
        EntrantFactory(competition=competition, player=player)
    a, b, c, d, e, f = (p.pk for p in players)
    rounds = [
        [
            ((a, b, "a"), ResultInput.of_pair(ResultKind.NORMAL, 412, 388)),
            ((c, d, "b"), ResultInput.of_pair(ResultKind.FLAG_A, 420, 300)),  # Cor's flag fell
            ((e, f, ""), ResultInput.of_pair(ResultKind.NORMAL, 350, 350)),
        ],
        [
            ((a, c, ""), ResultInput.of_pair(ResultKind.FORFEIT_B)),  # Cor forfeited
            ((b, e, "b"), ResultInput.of_pair(ResultKind.ANNULLED)),
            ((d, None, ""), None),  # bye
            ((f, None, ""), None),
        ],
        [
            ((a, d, "a"), ResultInput.of_pair(ResultKind.FORFEIT_BOTH)),
            ((b, f, "a"), ResultInput.of_pair(ResultKind.FORFEIT_A)),  # Bert forfeited
            ((c, e, "b"), ResultInput.of_pair(ResultKind.FLAG_B, 280, 390)),  # Eva's flag fell
        ],
        [((a, e, "a"), None), ((b, c, ""), None), ((d, f, "b"), None)],  # published, no results
    ]
    for pairs in rounds:
        round_obj = round_create(competition=competition)
        games = round_set_pairings(
            round=round_obj,
            pairings=[
                pair_spec(player_a=x, player_b=y, table=i, starter=s)
                for i, ((x, y, s), _r) in enumerate(pairs, 1)
            ],
        )
        round_set_status(round=round_obj, status=Round.Status.PUBLISHED)
        for game, (_pair, result) in zip(games, pairs, strict=True):
            if result is not None:
                game_record_result(game=game, result=result, by=secretary)
    draft = round_create(competition=competition)
    round_set_pairings(round=draft, pairings=[pair_spec(player_a=a, player_b=f)])
    return players


def pairings(competition):
    """Per round: each game as (names, outcome, winner by name, scores by name, starter by name)."""
    out = {}
    for game in (
        Game.objects.filter(round__competition=competition)
        .exclude(round__status="draft")
        .select_related("round")
        .with_seats()
    ):
        players = [*(player.name for player in game.players), None]
        names = {"a": players[0], "b": players[1]}
        _outcome, won, score_a, score_b = pair(game)
        out.setdefault(game.round.number, set()).add(
            (
                frozenset(filter(None, names.values())),
                game.outcome,
                names.get(won, won),
                frozenset({(names["a"], score_a), (names["b"], score_b)}),
                # Who started a forfeited or annulled game does not travel (TSH: no game).
                players[game.starter]
                if game.starter is not None and game.outcome in ("", "normal", "flag_fall")
                else "",
            )
        )
    return out


def standings(competition):
    return {
        row.name: (
            row.match_points,
            row.board_points,
            row.games,
            row.wins,
            row.losses,
            row.byes,
            row.spread,
        )
        for row in standings_get(competition).groups[""]
    }


@pytest.mark.django_db
def test_export_then_import_gives_the_same_standings_and_pairings(club, competition, secretary):
    played_competition(competition, secretary)
    text = tsh_export(competition=competition)
    assert text.count("\n") == 6
    summary = tsh_import(club=club, data=text.encode(), name="Terug", slug="terug", by=secretary)
    again = summary.competition
    assert summary.new_players == 0  # the club's members are found by name
    assert standings(again) == standings(competition)
    assert pairings(again) == pairings(competition)
    assert 5 not in pairings(again)  # the draft round stays behind
    # The file reads the same when exported again (the ratings now count both copies).
    assert tsh_export(competition=again) == tsh_export(competition=competition)


@pytest.mark.django_db
def test_the_export_is_what_tsh_reads(club, competition, secretary):
    played_competition(competition, secretary)
    players = {p.name: p for p in tsh.parse(tsh_export(competition=competition))}
    anna = players["Anna"]
    # The club's rating: one win over a new player, from 1500 ± 350 (the core's doctest).
    assert (anna.rating, players["Bert"].rating) == (1662, 1338)
    # Anna (player 1): beat Bert 412-388 going first; won by Cor's forfeit (TSH: +50 against
    # 0); both forfeited against Dirk (-50); round 4 paired with Eva, no score yet.
    assert anna.opponents == (2, 0, 0, 5) and anna.scores == (412, 50, -50)
    assert anna.field("p12") == ("1", "0", "0", "1")
    assert anna.field("bordpunt") == ("n", "xw:3", "xb:4", "p")
    assert players["Dirk"].scores == (300, 50, -50)  # won by Cor's flag fall; a bye


# --- commands -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_commands_round_trip(club, competition, secretary, tmp_path, capsys):
    played_competition(competition, secretary)
    path = tmp_path / "a.t"
    call_command("export_tsh", f"{club.slug}/{competition.slug}", "--output", str(path))
    call_command("import_tsh", club.slug, str(path), "--name", "Uit TSH", "--rules", "standard")
    out = capsys.readouterr().out
    assert f"Created {club.slug}/uit-tsh: 6 players (0 new), 4 rounds, 13 games." in out
    again = Competition.objects.get(slug="uit-tsh")
    assert again.rules == "standard" and standings(again) == standings(competition)


@pytest.mark.django_db
def test_the_import_command_refuses_clearly(club, tmp_path):
    path = tmp_path / "a.t"
    path.write_text("Anke 0 2; 400\nBram 0 0; 50\n")
    expected = "Nothing was imported: Regel 1: ronde 1: Bram heeft Anke niet"
    with translation.override("nl"), pytest.raises(CommandError, match=expected):
        call_command("import_tsh", club.slug, str(path), "--name", "X")
    with pytest.raises(CommandError, match="No club"):
        call_command("import_tsh", "nowhere", str(path), "--name", "X")
    assert not Competition.objects.exists()


# --- pages ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_secretary_downloads_the_file(client, secretary_client, competition, secretary):
    played_competition(competition, secretary)
    url = reverse("tsh_download", kwargs=competition.url_kwargs)
    response = secretary_client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="clubcompetitie.t"'
    assert response.content.decode() == tsh_export(competition=competition)
    page = secretary_client.get(reverse("tsh", kwargs=competition.url_kwargs))
    assert url in page.content.decode()
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


@pytest.mark.django_db
def test_the_secretary_uploads_a_file(secretary_client, club):
    url = reverse("tsh_import", args=[club.slug])
    response = secretary_client.post(
        url,
        {
            "file": SimpleUploadedFile("a.t", HAND_WRITTEN.read_bytes()),
            "name": "Toernooi",
            "slug": "",
            "rules": "standard",
        },
    )
    competition = Competition.objects.get(slug="toernooi")
    assert response.status_code == 302 and response.url == competition.get_absolute_url()
    broken = secretary_client.post(
        url,
        {
            "file": SimpleUploadedFile("b.t", b"Anke 0 2; 400\nBram 0 0; 50\n"),
            "name": "Kapot",
            "rules": "gouds8",
        },
    )
    assert broken.status_code == 200
    assert "Regel 1: ronde 1: Bram heeft Anke niet als tegenstander." in broken.content.decode()
    assert Competition.objects.count() == 1


@pytest.mark.django_db
def test_only_the_clubs_secretaries_may_import(client, other_secretary, club):
    client.force_login(other_secretary)
    assert client.get(reverse("tsh_import", args=[club.slug])).status_code == 403


@pytest.mark.django_db
def test_the_download_runs_a_fixed_number_of_queries(
    secretary_client, club, competition, secretary
):
    url = reverse("tsh_download", kwargs=competition.url_kwargs)
    club_status(club.slug, fresh=False)  # the club's status in the cache, as after a visit
    with CaptureQueriesContext(connection) as empty:
        assert secretary_client.get(url).status_code == 200
    played_competition(competition, secretary)
    with CaptureQueriesContext(connection) as full:
        assert secretary_client.get(url).status_code == 200
    # 8, and the club's ratings: the version, the rounds, the rated games; with games,
    # their seats (one query, which an empty competition does not need).
    assert len(full) == len(empty) + 1 <= 11
