"""Backup and restore of a whole club: export_club, import_club and the club page's download.

The round trip runs on whichever database the suite runs on (SQLite, and PostgreSQL in CI).
"""

import io
import json
import zipfile
from dataclasses import asdict
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import rules
from archives import backup
from archives.backup import BackupError, club_archive, restore_club
from clubs.models import Club, HistoryEntry, Membership, Player
from competition import selectors
from competition.models import Competition, Round
from duplicate.models import Slip, Turn
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from games.confirmation import game_result_confirm, game_result_enter
from games.models import Game, Move
from games.moves import game_to_gcg, move_add
from games.services import ResultInput, ResultKind, game_record_result
from tests.factories import (
    AbsenceFactory,
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    GroupFactory,
    HistoryEntryFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
    competition_with_results,
    secretary_of,
    user_in_club,
)

User = get_user_model()

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_club(pairs_club, secretary):
    """A club with competitions holding every kind of row and history the app has: pairs,
    a duplicate evening, and tables of 3 and 4."""
    players = [Player.objects.get(name=name) for name in ("Anna", "Bert", "Cor", "Dirk", "Eva")]
    _tables_competition(pairs_club, secretary, players)
    return pairs_club


@pytest.fixture
def pairs_club(club, secretary):
    """The club of `full_club` before tables of 3 and 4: what a version-1 archive (of
    Bordpunt before tables) could hold."""
    competition_with_results(entrants=7, rounds=2, club=club)  # byes and flag falls
    league = CompetitionFactory(
        club=club, name="Voorjaar", slug="voorjaar", tiebreaks=["wins", "spread"]
    )
    north, south = (
        GroupFactory(competition=league, name="Noord"),
        GroupFactory(competition=league, name="Zuid", order=1),
    )
    players = [PlayerFactory(name=name) for name in ("Anna", "Bert", "Cor", "Dirk", "Eva")]
    players[0].federation_number = "NL-1234"
    players[0].rating = 1480
    players[0].save()
    for index, player in enumerate(players):
        MembershipFactory(club=club, player=player)
        EntrantFactory(
            competition=league,
            player=player,
            group=north if index < 3 else south,
            withdrawn_from_round=3 if player.name == "Eva" else None,
        )
    anna, bert, cor, dirk, eva = players
    finished = Round.objects.create(competition=league, number=1, status=Round.Status.PUBLISHED)
    published = Round.objects.create(competition=league, number=2, status=Round.Status.PUBLISHED)
    Round.objects.create(competition=league, number=3, status=Round.Status.DRAFT)
    draft = Round.objects.get(competition=league, number=3)
    moment = timezone.now() - timedelta(days=3)

    normal = GameFactory(round=finished, table=1, player_a=anna, player_b=bert, starter="a")
    forfeit = GameFactory(round=finished, table=2, player_a=dirk, player_b=eva)
    GameFactory(round=finished, player_a=cor, player_b=None, table=None, bye=True)
    game_record_result(
        game=normal,
        result=ResultInput.of_pair(ResultKind.NORMAL, 356, 298),
        by=secretary,
        now=moment,
    )
    game_record_result(
        game=normal,
        result=ResultInput.of_pair(ResultKind.NORMAL, 356, 398),
        by=secretary,
        reason="Score van Bert verkeerd overgenomen.",
        now=moment + timedelta(minutes=5),
    )
    game_record_result(
        game=forfeit, result=ResultInput.of_pair(ResultKind.FORFEIT_B), by=None, now=moment
    )
    Round.objects.filter(pk=finished.pk).update(status=Round.Status.FINISHED)

    # Entered move by move (still being played), with a word-list warning.
    board = GameFactory(
        round=published,
        table=1,
        player_a=anna,
        player_b=cor,
        starter="a",
        rules=rules.GOUDS_8.to_dict(),
    )
    for notation in ("8H XQZW", "-", "-"):
        move_add(game=board, notation=notation, by=secretary)
    flag = GameFactory(round=published, table=2, player_a=bert, player_b=dirk)
    game_record_result(
        game=flag,
        result=ResultInput.of_pair(ResultKind.FLAG_A, 377, 301),
        by=secretary,
        reason="Vlag van Bert gevallen.",
    )
    AbsenceFactory(round=published, player=eva)
    GameFactory(round=draft, table=1, player_a=anna, player_b=bert)
    _duplicate_evening(club, secretary, players[:3])
    return club


def _tables_competition(club, secretary, players):
    """A competition at tables of 3 and 4 (issue 20): a table of 4 with a flag fall and a
    bye, then a table of 3 on the board, a table of 4 whose result one player entered
    and one other confirmed so far, and one where two did not come."""
    anna, bert, cor, dirk, eva = players
    anna.user = UserFactory(username="anna-tafels")
    anna.save()
    bert.user = UserFactory(username="bert-tafels")
    bert.save()
    foursomes = CompetitionFactory(
        club=club,
        name="Vierspel",
        slug="vierspel",
        rules=Competition.Rules.STANDARD,
        table_size="fours",
        table_scoring="scaled",
        tiebreaks=["relative_score"],
    )
    for player in players:
        EntrantFactory(competition=foursomes, player=player)
    first = Round.objects.create(competition=foursomes, number=1, status=Round.Status.PUBLISHED)
    second = Round.objects.create(
        competition=foursomes, number=2, status=Round.Status.PUBLISHED, table_size="3"
    )
    standard = rules.STANDARD.to_dict()
    flagged = GameFactory(round=first, table=1, players=[anna, bert, cor, dirk], rules=standard)
    game_record_result(
        game=flagged,
        result=ResultInput("flag_c", (401, 377, 420, 290)),
        by=secretary,
        reason="Vlag van Cor gevallen.",
    )
    GameFactory(round=first, player_a=eva, player_b=None, table=None, bye=True)
    on_board = GameFactory(
        round=second, table=1, players=[eva, anna, cor], starter=1, rules=standard
    )
    for notation in ("8H ZEE", "-", "-"):
        move_add(game=on_board, notation=notation, by=secretary)
    third = Round.objects.create(competition=foursomes, number=3, status=Round.Status.PUBLISHED)
    entered = GameFactory(round=third, table=1, players=[bert, dirk, anna, cor], rules=standard)
    game_result_enter(
        game=entered, result=ResultInput("normal", (350, 362, 348, 301)), by=bert.user
    )
    game_result_confirm(game=Game.objects.get(pk=entered.pk), by=anna.user)
    # Bert and Dirk did not come: Anna and Cor played each other without them.
    fourth = Round.objects.create(competition=foursomes, number=4, status=Round.Status.PUBLISHED)
    without = GameFactory(round=fourth, table=1, players=[anna, bert, cor, dirk], rules=standard)
    game_record_result(
        game=without,
        result=ResultInput("forfeit_bd", (380, None, 402, None)),
        by=secretary,
        reason="Bert en Dirk kwamen niet.",
    )


def _duplicate_evening(club, secretary, players):
    """A duplicate competition: one closed turn with slips (a corrected claim, a zero, a
    late one), a second turn open with a slip."""
    anna, bert, cor = players
    from duplicate.models import DuplicateCompetition, Participant

    dup = DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules="standard"
    )
    for player in players:
        Participant.objects.create(competition=dup, player=player)
    evening = evening_create(competition=dup, number=1, by=secretary)
    first = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    slip_submit(turn=first, player_id=anna.pk, text="8D KAArSEN", claimed=76, by=secretary)
    slip_submit(turn=first, player_id=bert.pk, text="8H KAAZ", claimed=30, by=secretary)
    first = turn_choose_top(turn=first, by=secretary)
    slip_submit(turn=first, player_id=cor.pk, text="8H KAAS", by=secretary)
    second = turn_draw(evening=evening, tiles="TWOORDA", by=secretary)
    slip_submit(turn=second, player_id=anna.pk, text="J7 ANTWOORD", claimed=79, by=secretary)


def _archive(club: Club) -> dict:
    with zipfile.ZipFile(io.BytesIO(club_archive(club=club))) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _standings(competition: Competition):
    view = selectors.standings_get(competition)
    return {
        group: [{**asdict(row), "player_id": None} for row in rows]
        for group, rows in view.groups.items()
    }


def _crosstable(competition: Competition):
    table = selectors.crosstable_get(competition)
    return [row.name for row in table.rows], table.cells


def _game_key(game: Game) -> tuple:
    return (game.round.competition.slug, game.round.number, game.table or 0, game.players[0].name)


def _history(club: Club) -> list[tuple]:
    entries = HistoryEntry.objects.filter(club=club).select_related("by")
    games = {game.pk: game for game in Game.objects.filter(round__competition__club=club)}
    rows = [
        (
            _game_key(games[entry.game_id]) if entry.game_id in games else None,
            entry.at,
            entry.author,
            entry.action,
            entry.object_type,
            entry.object_label,
            entry.round_number,
            entry.reason_code,
            entry.reason,
            entry.before,
            entry.after,
        )
        for entry in entries
    ]
    return sorted(rows, key=repr)  # None and tuples side by side (a slip names no game)


def _gcg_files(club: Club) -> dict[tuple, str]:
    games = Game.objects.filter(round__competition__club=club, moves__isnull=False).distinct()
    return {
        _game_key(game): game_to_gcg(game)
        for game in games.select_related("round__competition").with_seats()
    }


def _everything(club: Club) -> dict:
    """What a visitor and the secretary can see of the club, without its database ids."""
    competitions = Competition.objects.filter(club=club).order_by("slug")
    return {
        "club": (club.name, club.city),
        "members": sorted(
            (m.player.name, m.player.federation_number, m.player.rating, m.role)
            for m in Membership.objects.filter(club=club).select_related("player")
        ),
        "competitions": [
            (
                c.name,
                c.slug,
                c.kind,
                c.rules,
                c.tiebreaks,
                c.table_size,
                c.table_scoring,
                c.created_at,
                c.changed_at,
            )
            for c in competitions
        ],
        "standings": [_standings(c) for c in competitions],
        "crosstables": [_crosstable(c) for c in competitions],
        "rounds": sorted(
            (r.competition.slug, r.number, r.status, r.date, r.table_size)
            for r in Round.objects.filter(competition__club=club).select_related("competition")
        ),
        "entrants": [
            sorted(
                (
                    e.player.name,
                    e.group.name if e.group else "",
                    e.joined_round,
                    e.withdrawn_from_round,
                )
                for e in selectors.entrants_with_players(c)
            )
            for c in competitions
        ],
        "moves": sorted(
            (
                _game_key(m.game),
                m.number,
                m.seat,
                m.notation,
                m.score,
                m.total,
                m.words,
                m.warnings,
                m.problem,
                m.entered_at,
                m.entered_by.username if m.entered_by else None,
            )
            for m in Move.objects.filter(game__round__competition__club=club)
            .select_related("game__round__competition", "entered_by")
            .prefetch_related("game__seats__player")
        ),
        "games": sorted(
            (
                _game_key(g),
                tuple(player.name for player in g.players),
                g.outcome,
                tuple(
                    (s.score, s.place, s.flag_fell, s.forfeited, s.confirmed) for s in g.seat_list
                ),
                g.version,
                g.starter,
                g.confirmation,
                g.claimed_by,
                json.dumps(g.counter_result, sort_keys=True),
                json.dumps(g.rules, sort_keys=True),
                g.entered_at,
            )
            for g in Game.objects.filter(round__competition__club=club)
            .select_related("round__competition")
            .with_seats()
        ),
        "history": _history(club),
        "gcg": _gcg_files(club),
        "turns": sorted(
            (
                t.evening.competition.slug,
                t.evening.number,
                t.number,
                t.drawn,
                t.rack,
                t.top,
                t.top_score,
                t.total,
            )
            for t in Turn.objects.filter(evening__competition__club=club).select_related(
                "evening__competition"
            )
        ),
        "slips": sorted(
            (
                s.turn.evening.competition.slug,
                s.turn.number,
                s.player.name,
                s.text,
                s.claimed,
                s.score,
                s.reason_code,
                s.reason_params,
                s.corrected,
                s.is_top,
                s.late,
                s.submitted_at,
            )
            for s in Slip.objects.filter(turn__evening__competition__club=club).select_related(
                "turn__evening__competition", "player"
            )
        ),
    }


def _as_restored(everything: dict) -> dict:
    """What a restore promises of `_everything`: the same club, with no account linked (a
    secretary comes back as a member; who entered a move is in the history, by name)."""
    return {
        **everything,
        "members": sorted(
            (*member[:3], Membership.Role.MEMBER) for member in everything["members"]
        ),
        "moves": sorted((*move[:-1], None) for move in everything["moves"]),
    }


def test_the_archive_holds_the_club_its_history_and_a_gcg_file_per_game_with_moves(full_club):
    files = _archive(full_club)
    document = json.loads(files["club.json"])
    history = json.loads(files["history.json"])

    assert document["format"] == "bordpunt-club" and document["version"] == 6
    assert "secretaris" in document["users"]
    assert len(document["data"]["clubs.club"]) == 1
    assert len(history) == HistoryEntry.objects.filter(club=full_club).count()
    actions = {entry["action"] for entry in history}
    assert {"result.enter", "result.correct", "move.add"} <= actions
    corrected = [entry for entry in history if entry["reason"].startswith("Score van Bert")]
    assert corrected[0]["by"] == "secretaris"
    assert corrected[0]["before"]["scores"] == [356, 298]
    assert corrected[0]["after"]["scores"] == [356, 398]
    assert {"at", "by", "action", "object", "before", "after", "reason"} <= set(corrected[0])
    boards = Game.objects.filter(moves__number=1).with_seats().order_by("pk")
    assert len(boards) == 2  # a pair and a table of 3
    for board in boards:
        assert files[f"games/{board.pk}.gcg"].decode() == game_to_gcg(board)
    assert sorted(n for n in files if n.startswith("games/")) == sorted(
        f"games/{board.pk}.gcg" for board in boards
    )
    moves = document["data"]["games.move"]
    assert moves[0]["warnings"] and moves[0]["entered_by"] == "secretaris"
    assert "password" not in files["club.json"].decode()


def test_restored_under_a_new_short_name_the_club_shows_exactly_the_same(full_club):
    before = _everything(full_club)
    files_before = _archive(full_club)

    report = restore_club(data=club_archive(club=full_club), slug="gouda-kopie")

    copy = Club.objects.get(slug="gouda-kopie")
    assert report.club == copy
    assert report.shared_players == 1  # Anna, by her federation number
    assert _everything(copy) == _as_restored(before)
    assert _everything(full_club) == before  # the original is untouched
    # The copy's archive has the same GCG files, byte for byte.
    files_after = _archive(copy)
    gcg = sorted(v for n, v in files_before.items() if n.startswith("games/"))
    assert gcg == sorted(v for n, v in files_after.items() if n.startswith("games/"))


def _canonical(files: dict[str, bytes]) -> dict:
    """The archive with every id replaced by the row's place in its list: two archives of
    the same club in different databases are then equal."""
    document = json.loads(files["club.json"])
    history = json.loads(files["history.json"])
    tables = {**document["data"], "clubs.historyentry": [entry["row"] for entry in history]}
    places = {
        label: {row["id"]: place for place, row in enumerate(rows)}
        for label, rows in tables.items()
    }
    targets = {}
    for model in (*backup.CLUB_MODELS, *backup.HISTORY_MODELS):
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model._meta.label_lower in places:
                targets[model._meta.label_lower, field.name] = field.related_model._meta.label_lower
    canonical = {}
    for label, rows in tables.items():
        canonical[label] = [
            {
                key: (
                    places[targets[label, key]][value]
                    if (label, key) in targets and value is not None
                    else value
                )
                for key, value in row.items()
                if key != "id"
            }
            for row in rows
        ]
    games = places["games.game"]
    canonical["gcg"] = {
        games[int(name[6:-4])]: value for name, value in files.items() if name.startswith("games/")
    }
    # A history entry refers to its objects by plain ids: by their places too.
    kinds = {kind: model._meta.label_lower for kind, model in backup._HISTORY_OBJECTS.items()}

    def place(label: str, value: int | None) -> int | None:
        return None if value is None else places[label].get(value)  # None: the row is gone

    canonical["history"] = [
        {
            **entry,
            "row": None,
            "object": {
                **entry["object"],
                "id": place(kinds[entry["object"]["type"]], entry["object"]["id"]),
                "competition": place("competition.competition", entry["object"]["competition"]),
                "duplicate": place("duplicate.duplicatecompetition", entry["object"]["duplicate"]),
                "game": place("games.game", entry["object"]["game"]),
            },
        }
        for entry in history
    ]
    for row in canonical["clubs.historyentry"]:
        row["object_id"] = place(kinds[row["object_type"]], row["object_id"])
        row["competition_id"] = place("competition.competition", row["competition_id"])
        row["duplicate_id"] = place("duplicate.duplicatecompetition", row["duplicate_id"])
        row["game_id"] = place("games.game", row["game_id"])
    canonical["users"] = document["users"]
    return canonical


def test_restored_into_an_empty_database_the_archive_comes_back_identical(full_club, tmp_path):
    before = _everything(full_club)
    files_before = _archive(full_club)
    # Empty the club out of the database, children first, as on a new server.
    models = (*backup.CLUB_MODELS, *backup.HISTORY_MODELS)
    rows = {
        model: list(backup._rows_of(model, full_club).values_list("pk", flat=True))
        for model in models
    }
    for model in reversed(models):
        doomed = model.objects.filter(pk__in=rows[model])
        # The app never deletes history; the operator emptying a database does, in SQL.
        doomed._raw_delete(doomed.db) if model is HistoryEntry else doomed.delete()
    assert not Club.objects.filter(slug="gouda").exists()

    call_command("import_club", _write(files_before, tmp_path / "gouda.zip"))

    restored = Club.objects.get(slug="gouda")
    assert _everything(restored) == _as_restored(before)
    assert _canonical(_archive(restored)) == _canonical_as_restored(_canonical(files_before))
    # The secretary's account exists here, but an archive cannot say who manages a club.
    assert User.objects.filter(username="secretaris").exists()
    assert not restored.memberships.filter(role=Membership.Role.SECRETARY).exists()
    assert not restored.memberships.filter(player__user__isnull=False).exists()


def _canonical_as_restored(canonical: dict) -> dict:
    """`_canonical` of an archive as a restore gives it back: no account linked anywhere,
    secretaries as members, authors of history entries by name."""
    for model in backup.CLUB_MODELS:
        for row in canonical[model._meta.label_lower]:
            for field in model._meta.concrete_fields:
                if backup._is_user(field):
                    row[field.name] = None
    for row in canonical["clubs.membership"]:
        row["role"] = Membership.Role.MEMBER
    for row in canonical["clubs.historyentry"]:
        row["by_name"], row["by"] = row["by_name"] or row["by"] or "", None
    canonical["users"] = sorted({entry["by"] for entry in canonical["history"] if entry["by"]})
    return canonical


def _write(files: dict[str, bytes], path) -> str:
    with zipfile.ZipFile(path, "w") as archive:
        for name, value in files.items():
            archive.writestr(name, value)
    return str(path)


def _counts() -> list[int]:
    return [model.objects.count() for model in (*backup.CLUB_MODELS, *backup.HISTORY_MODELS)]


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, value in files.items():
            archive.writestr(name, value)
    return buffer.getvalue()


def _edited(files: dict[str, bytes], edit) -> bytes:
    document = json.loads(files["club.json"])
    edit(document)
    return _zip({**files, "club.json": json.dumps(document).encode()})


def test_a_taken_short_name_is_refused_and_nothing_is_written(full_club, tmp_path):
    path = _write(_archive(full_club), tmp_path / "club.zip")
    counts = _counts()

    with pytest.raises(CommandError, match=r"bestaat al.*“gouda”.*--slug"):
        call_command("import_club", path)
    with pytest.raises(CommandError, match="geen geldige korte naam"):
        call_command("import_club", path, slug="twee woorden")

    assert _counts() == counts


def _wrong_version(document):
    document["version"] = 99


def _unknown_field(document):
    document["data"]["clubs.player"][0]["nickname"] = "Anna"


def _dangling_reference(document):
    document["data"]["games.game"][0]["round"] = 999_999


def _huge_number(document):
    document["data"]["games.seat"][0]["score"] = 10**40


def _seats_of_a(document, outcome: str) -> list[dict]:
    game = next(g for g in document["data"]["games.game"] if g["outcome"] == outcome)
    return [seat for seat in document["data"]["games.seat"] if seat["game"] == game["id"]]


def _inconsistent_result(document):
    _seats_of_a(document, "normal")[0]["flag_fell"] = True  # a flag at a normal game


def _scores_at_a_forfeit(document):
    for seat in _seats_of_a(document, "forfeit"):
        seat["score"] = 100


def _one_seat_at_a_table(document):
    seats = document["data"]["games.seat"]
    seats.remove(_seats_of_a(document, "normal")[1])


def _nul_in_a_name(document):
    document["data"]["clubs.player"][0]["name"] = "Anna\x00"


def _move_at_no_seat(document):
    document["data"]["games.move"][0]["seat"] = 3  # the game is a pair


def _text_for_a_number(document):
    document["data"]["games.seat"][0]["score"] = "veel"


def _unknown_table(document):
    document["data"]["clubs.nickname"] = []


def _not_a_list(document):
    document["data"]["games.move"] = {"1": "H8 WOORD"}


def _turn_not_in_the_bag(document):
    document["data"]["duplicate.turn"][1]["drawn"] = "ZZZZZZZ"


def _evening_rules_unknown(document):
    document["data"]["duplicate.evening"][0]["rules"] = "schaak"


def _turn_top_not_on_the_rack(document):
    document["data"]["duplicate.turn"][0]["top"] = "8H XYLOFOON"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_turn_not_in_the_bag, "duplicate-avond 1"),
        (_turn_top_not_on_the_rack, "duplicate-avond 1"),
        (_evening_rules_unknown, "duplicate.evening"),
        (_wrong_version, "versie 99; deze Bordpunt leest versie 1–6"),
        (_unknown_field, "nickname"),
        (_dangling_reference, "round"),
        (_huge_number, "score"),
        (_inconsistent_result, "niet door een gevallen vlag beslist"),
        (_scores_at_a_forfeit, "geen bordpunten en geen gevallen vlag"),
        (_one_seat_at_a_table, "geen juiste stoelen"),
        (_not_a_list, "games.move"),
        (_unknown_table, "clubs.nickname"),
        (_nul_in_a_name, "clubs.player"),
        (_text_for_a_number, "score"),
        (_move_at_no_seat, "past niet bij zijn partij"),
    ],
)
def test_a_damaged_archive_is_refused_clearly_and_nothing_is_written(full_club, edit, message):
    data = _edited(_archive(full_club), edit)
    counts = _counts()

    with pytest.raises(BackupError) as refused:
        restore_club(data=data, slug="kopie")

    assert message in str(refused.value.message)
    assert _counts() == counts


def test_a_slips_score_in_the_archive_is_the_engines_after_a_restore(full_club):
    def edit(document):
        for row in document["data"]["duplicate.slip"]:
            row["score"], row["is_top"], row["reason_code"] = 999, True, ""
        for row in document["data"]["duplicate.turn"]:
            row["top_score"], row["total"] = 1, 1

    restored = restore_club(data=_edited(_archive(full_club), edit), slug="kopie")
    everything = _everything(restored.club)
    assert everything["turns"] == _everything(full_club)["turns"]
    assert everything["slips"] == _everything(full_club)["slips"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PK\x03\x04 not really a zip", "geen ZIP-bestand"),
        (b"\x00" * 100, "geen ZIP-bestand"),
        (_zip({"history.json": b"[]"}), "club.json ontbreekt"),
        (_zip({"club.json": b"{", "history.json": b"[]"}), "geen geldige JSON"),
        (_zip({"club.json": b"\xff\xfe", "history.json": b"[]"}), "geen geldige JSON"),
        (_zip({"club.json": b"[NaN]", "history.json": b"[]"}), "geen geldige JSON"),
        (_zip({"club.json": b"[" * 100_000, "history.json": b"[]"}), "geen bestand dat Bordpunt"),
        (_zip({"club.json": b'{"format": "tsh"}', "history.json": b"[]"}), "geen Bordpunt-club"),
        (_zip({"club.json": b"{}", "../etc/passwd": b""}), "../etc/passwd"),
    ],
)
def test_a_foreign_file_is_refused_clearly(db, data, message):
    with pytest.raises(BackupError) as refused:
        restore_club(data=data)
    assert message in str(refused.value.message)
    assert not Club.objects.exists()


def test_an_oversized_member_is_refused_before_it_is_unpacked(full_club, monkeypatch):
    data = club_archive(club=full_club)
    monkeypatch.setattr(backup, "MAX_JSON_BYTES", 1000)
    with pytest.raises(BackupError) as refused:
        restore_club(data=data, slug="kopie")
    assert "te groot" in str(refused.value.message)


def test_no_account_is_linked_or_created_and_authors_are_kept_by_name(full_club, secretary):
    data = club_archive(club=full_club)
    users = User.objects.count()

    report = restore_club(data=data, slug="elders")

    assert "secretaris" in report.accounts
    assert report.secretary_names == [secretary.player.name]
    assert User.objects.count() == users
    copy = HistoryEntry.objects.filter(club=report.club)
    assert copy.count() == HistoryEntry.objects.filter(club=full_club).count()
    # The account "secretaris" is here, yet the copy's entries do not point at it.
    assert not copy.filter(by__isnull=False).exists()
    # "": no one; the two players who entered and confirmed a table's result.
    authors = {"secretaris", "", "anna-tafels", "bert-tafels"}
    assert set(copy.values_list("by_name", flat=True)) == authors
    assert not Move.objects.filter(
        game__round__competition__club=report.club, entered_by__isnull=False
    ).exists()


def test_export_club_writes_the_archive_to_the_file_given(full_club, tmp_path):
    target = tmp_path / "nacht.zip"
    call_command("export_club", "gouda", output=target)
    with zipfile.ZipFile(target) as archive:
        assert {"club.json", "history.json"} <= set(archive.namelist())
    assert [p.name for p in tmp_path.iterdir()] == ["nacht.zip"]  # no temporary file left
    with pytest.raises(CommandError, match="onbekend"):
        call_command("export_club", "onbekend", output=target)


def test_only_the_clubs_secretaries_may_download_the_backup(client, full_club, secretary):
    url = reverse("club_backup", kwargs={"club": "gouda"})
    page = reverse("club", kwargs={"club": "gouda"})

    assert url not in client.get(page).content.decode()
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(user_in_club(full_club, username="lid"))
    assert url not in client.get(page).content.decode()
    assert client.get(url).status_code == 403
    client.force_login(secretary_of(ClubFactory(slug="delft"), username="delft"))
    assert client.get(url).status_code == 403
    assert client.get(reverse("club_backup", kwargs={"club": "nergens"})).status_code == 404

    client.force_login(secretary)
    assert url in client.get(page).content.decode()
    # The club as the archive holds it: the download's own history entry comes after it.
    expected = _as_restored(_everything(full_club))
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert 'filename="gouda-' in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]  # it holds draft rounds too
    restored = restore_club(data=response.content, slug="via-de-site")
    assert _everything(restored.club) == expected


def test_every_model_of_the_project_is_backed_up_or_deliberately_left_out():
    """A model added later fails here until it is given a place in the archive."""
    ours = {
        model
        for app in ("clubs", "events", "competition", "games", "duplicate")
        for model in apps.get_app_config(app).get_models()
    }
    assert ours == set(backup.CLUB_MODELS) | set(backup.HISTORY_MODELS) | set(backup.NOT_BACKED_UP)


def _queries(callable_) -> int:
    with CaptureQueriesContext(connection) as captured:
        callable_()
    return len(captured)


def test_export_and_restore_need_the_same_queries_for_a_long_competition_as_a_short_one(db):
    short = competition_with_results(entrants=8, rounds=2).competition.club
    long = competition_with_results(entrants=20, rounds=9).competition.club
    for club in (short, long):
        HistoryEntryFactory(game=Game.objects.filter(round__competition__club=club).first())

    assert _queries(lambda: club_archive(club=short)) == _queries(lambda: club_archive(club=long))
    # Restoring writes in batches (SQLite takes fewer rows per statement than PostgreSQL):
    # a few queries per table, however long the competition.
    long_data = club_archive(club=long)
    rows = sum(
        len(rows) for rows in json.loads(_zip_member(long_data, "club.json"))["data"].values()
    )
    assert rows > 300
    assert _queries(lambda: restore_club(data=long_data, slug="lang")) < 40


def _zip_member(data: bytes, name: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(name)


# --- an archive of version 1: a game of two sides, before tables ----------------------------


def _as_version_1(files: dict[str, bytes]) -> bytes:
    """The archive as Bordpunt wrote it before tables (version 1), by hand: each game holds
    player_a/player_b, score_a/score_b, winner, starter and claimed_by ("a"/"b"), a
    dispute's other entry as {outcome, winner, score_a, score_b}; a seat its side, a move
    its side; no seat holds a result."""
    document = json.loads(files["club.json"])
    data = document["data"]
    seats_of: dict[int, list[dict]] = {}
    for seat in sorted(data["games.seat"], key=lambda seat: seat["position"]):
        seats_of.setdefault(seat["game"], []).append(seat)
    for game in data["games.game"]:
        seats = seats_of[game["id"]]
        places = [seat["place"] for seat in seats]
        side = {0: "a", 1: "b", None: ""}
        if game["outcome"] == "":
            won = ""
        elif places == [1, 1]:
            won = "draw"
        elif 1 in places:
            won = side[places.index(1)]
        else:
            won = "none"
        game.update(
            player_a=seats[0]["player"],
            player_b=seats[1]["player"] if len(seats) > 1 else None,
            score_a=seats[0]["score"],
            score_b=seats[1]["score"] if len(seats) > 1 else None,
            winner=won,
            starter=side[game["starter"]],
            claimed_by=side[game["claimed_by"]],
        )
        counter = game["counter_result"]
        if counter:
            assert counter["outcome"] == "normal"  # what the club below holds
            score_a, score_b = counter["scores"]
            game["counter_result"] = {
                "outcome": "normal",
                "winner": "a" if score_a > score_b else "b" if score_b > score_a else "draw",
                "score_a": score_a,
                "score_b": score_b,
            }
    for seat in data["games.seat"]:
        seat["side"] = "ab"[seat.pop("position")]
        for name in ("score", "place", "flag_fell", "forfeited", "confirmed"):
            del seat[name]
    for move in data["games.move"]:
        move["side"] = "ab"[move.pop("seat")]
    document["version"] = 1
    return _zip({**files, "club.json": json.dumps(document).encode()})


@pytest.fixture
def club_with_a_dispute(pairs_club):
    """`pairs_club` with a result a player entered that the opponent disputes."""
    full_club = pairs_club
    league = Competition.objects.get(club=full_club, slug="voorjaar")
    published = Round.objects.get(competition=league, number=2)
    coby_user, eva_user = UserFactory(), UserFactory()
    eva = PlayerFactory(name="Evi", user=eva_user)
    cor = PlayerFactory(name="Coby", user=coby_user)
    for player in (eva, cor):
        MembershipFactory(club=full_club, player=player)
        EntrantFactory(competition=league, player=player)
    disputed = GameFactory(round=published, table=3, player_a=cor, player_b=eva)
    game_result_enter(game=disputed, result=ResultInput.of_pair("normal", 300, 250), by=coby_user)
    game_result_enter(game=disputed, result=ResultInput.of_pair("normal", 250, 300), by=eva_user)
    return full_club


def test_a_version_1_archive_restores_as_the_same_club(club_with_a_dispute):
    before = _everything(club_with_a_dispute)
    old = _as_version_1(_archive(club_with_a_dispute))
    assert json.loads(zipfile.ZipFile(io.BytesIO(old)).read("club.json"))["version"] == 1

    report = restore_club(data=old, slug="van-voor-de-tafels")

    assert _everything(report.club) == _as_restored(before)
    disputed = Game.objects.with_seats().get(
        round__competition__club=report.club, confirmation="disputed"
    )
    # Coby (seat 0) entered 300-250 and confirmed it; Evi (seat 1) entered the other one.
    assert (disputed.claimed_by, [s.confirmed for s in disputed.seat_list]) == (0, [True, False])
    assert disputed.counter_result == {
        "outcome": "normal",
        "scores": [250, 300],
        "flag_fell": [],
        "forfeited": [],
        "by": 1,
    }


def _old_game(document, outcome: str) -> dict:
    return next(g for g in document["data"]["games.game"] if g["outcome"] == outcome)


def _old_winner_against_the_scores(document):
    game = _old_game(document, "normal")
    game["winner"] = "b" if game["score_a"] > game["score_b"] else "a"


def _old_seat_of_someone_else(document):
    game = _old_game(document, "normal")
    seat = next(s for s in document["data"]["games.seat"] if s["game"] == game["id"])
    seat["player"] = game["player_b"] if seat["side"] == "a" else game["player_a"]


def _old_side_unknown(document):
    document["data"]["games.move"][0]["side"] = "c"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_old_winner_against_the_scores, "niet wie de bordpunten aanwijzen"),
        (_old_seat_of_someone_else, "past niet bij zijn partij"),
        (_old_side_unknown, "seat"),
    ],
)
def test_a_damaged_version_1_archive_is_refused_and_nothing_is_written(pairs_club, edit, message):
    old = _as_version_1(_archive(pairs_club))
    with zipfile.ZipFile(io.BytesIO(old)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    counts = _counts()

    with pytest.raises(BackupError) as refused:
        restore_club(data=_edited(files, edit), slug="kopie")

    assert message in str(refused.value.message)
    assert _counts() == counts


def test_a_restored_seat_gets_the_place_its_result_gives_not_the_archives(full_club):
    files = _archive(full_club)

    def lie(document):
        for seat in _seats_of_a(document, "normal"):
            seat["place"] = 1  # both "won" a game that was not a draw

    report = restore_club(data=_edited(files, lie), slug="kopie")

    assert _everything(report.club) == _as_restored(_everything(full_club))


@pytest.mark.parametrize(
    "odd",
    [
        lambda d: d["data"]["games.seat"][0].update(side=["a"]),
        lambda d: d["data"]["games.seat"][0].update(game=[1]),
        lambda d: d["data"]["games.game"][0].update(claimed_by={"a": 1}, winner=[None]),
        lambda d: d["data"]["games.game"][0].update(counter_result={"score_a": "veel"}),
        lambda d: d["data"]["games.move"][0].update(side=7),
        lambda d: d["data"].update({"games.seat": "stoelen"}),
    ],
)
def test_an_odd_version_1_archive_is_refused_not_a_server_error(pairs_club, odd):
    old = _as_version_1(_archive(pairs_club))
    with zipfile.ZipFile(io.BytesIO(old)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    counts = _counts()

    with pytest.raises(BackupError):
        restore_club(data=_edited(files, lambda document, *_: odd(document)), slug="kopie")

    assert _counts() == counts


# --- an archive of version 3: the thinking time a duplicate competition's own field ------------


def _as_version_3(files: dict[str, bytes], seconds: int) -> bytes:
    """The archive as Bordpunt wrote it before the duplicate rules (version 3), by hand:
    a duplicate competition with `think_seconds` and no rules; an evening without slip
    rules; a turn without its clock; a slip without its faults, notation and acceptance;
    a club without its slip notation."""
    document = json.loads(files["club.json"])
    data = document["data"]
    for row in data["duplicate.duplicatecompetition"]:
        del row["settings"]
        row["think_seconds"] = seconds
    for row in data["duplicate.evening"]:
        del row["slip_rules"]
    for row in data["duplicate.turn"]:
        del row["seconds"], row["added_seconds"]
    for row in data["duplicate.slip"]:
        for name in ("late_accepted", "faults", "warning", "penalty", "written_in"):
            del row[name]
    for row in data["clubs.club"]:
        del row["slip_notation"]
    document["version"] = 3
    return _zip({**files, "club.json": json.dumps(document).encode()})


@pytest.mark.parametrize(
    ("seconds", "settings", "slip_rules"),
    [
        # The NTSV preset's 3 minutes: no rules of its own.
        (180, {}, {}),
        (120, {"preset": "ntsv", "slips": {"turn_seconds": 120}}, {"turn_seconds": 120}),
    ],
)
def test_a_version_3_archive_keeps_its_thinking_time_as_a_rule(
    pairs_club, seconds, settings, slip_rules
):
    from duplicate.models import DuplicateCompetition, Evening
    from duplicate.selectors import evening_results

    before = [(r.total, r.tops, r.solos) for r in evening_results(Evening.objects.get())]
    old = _as_version_3(_archive(pairs_club), seconds)
    report = restore_club(data=old, slug="voor-de-regels")
    restored = DuplicateCompetition.objects.get(club=report.club)
    assert restored.settings == settings
    evening = Evening.objects.get(competition=restored)
    assert evening.slip_rules == slip_rules
    assert {turn.seconds for turn in Turn.objects.filter(evening=evening)} == {seconds}
    assert [(r.total, r.tops, r.solos) for r in evening_results(evening)] == before
