"""A busy club evening: everyone at once, over real HTTP, each person on their own things.

Shared by the live-server test (tests/test_busy_evening.py), the production-server
benchmark (benchmarks/evening.py) and the fault benchmark (benchmarks/faults.py), so all
three send the same requests and check the database the same way.

`prepare_evening` builds the club (needs Django set up and a migrated database);
`run_evening` plays the evening against a server's URL from threads, standard library only;
`check_evening` reads the database afterwards and lists every problem: a write that was
acknowledged and is missing or doubled, a history entry too many or too few, a round whose
status does not follow from its games.

The scenario, in the competition "Clubcompetitie" (Gouds 8) of 24 players, rounds 1-4
paired, and a second competition "Zomeravonden" for the import:

- 10 devices (logged in as "secretaris") enter round 4's tables 1-10 move by move;
- "secretaris-1" and "secretaris-2" enter rounds 2 and 3 on the results page (the first
  six tables, then the rest), then correct table 1 there with a reason;
- "secretaris-3" corrects four results of round 1 on the correction page, then decides
  round 4's disputed table 12 once its players are done;
- "speler-1" enters round 4's table 11, "speler-2" confirms it; "speler-3" enters table
  12, "speler-4" enters another result: disputed (each second player waits for the first);
- "wedstrijdleider" adds round 5, generates its pairing and publishes it;
- "penningmeester" uploads a CSV into "Zomeravonden" and confirms its preview.

Nobody acts on what someone else acts on at the same time, so every refusal is a defect.
The import goes into a competition of its own because its rounds would take the round
number "Add round" is about to add (a correct refusal, not the point here).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from tests.live import Device, Response, Scoresheet, demo_scoresheets, form_values

BOARDS = 10
TABLES = 12  # round 4: ten boards, tables 11 and 12 entered by their players
PLAYERS = 2 * TABLES
NEXT_ROUND = 5
PASSWORD = "bordpunt-avond"
VERSION = re.compile(rb'name="version" value="(\d+)"')
PAIRING_VERSION = re.compile(rb'name="pairing" value="([^"]+)"')

IMPORT_CSV = (
    b"round,table,player,opponent,score,opponent_score,outcome\n"
    b"1,1,Speler 00,Speler 01,320,290,normal\n"
    b"1,2,Speler 02,Speler 03,300,350,normal\n"
    b"1,3,Xander Quist,Yvonne Ruig,250,251,normal\n"
    b"2,1,Speler 00,Speler 02,280,270,normal\n"
    b"2,2,Speler 01,Xander Quist,240,310,normal\n"
    b"2,3,Speler 03,Yvonne Ruig,,,forfeit:player\n"
)
IMPORT_GAMES = 6
IMPORT_ROUNDS = 2
IMPORT_PLAYERS = 6  # four club members and two new players


@dataclass
class Evening:
    """What `prepare_evening` made: slugs, usernames and ids (JSON round-trips it, for a
    benchmark that prepares in a child process)."""

    club: str
    competition: str
    import_competition: str
    board_games: list[int]  # round 4, tables 1-10; sheet i % len(sheets) on board i
    results_rounds: dict[str, int]  # secretary -> round they enter on the results page
    round_games: dict[str, list[int]]  # round number -> game ids by table
    corrections: list[int]  # round 1 games that "secretaris-3" corrects
    player_games: list[dict[str, Any]]  # {"game", "first", "second", "action"}
    password: str = PASSWORD

    @property
    def base(self) -> str:
        return f"/{self.club}/{self.competition}/"


@dataclass
class Write:
    """One write someone made: who, what, the answer, and what it wrote when acknowledged."""

    actor: str
    kind: str
    status: int
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def acknowledged(self) -> bool:
        return self.status == 302


@dataclass
class EveningRun:
    devices: dict[str, Device]
    writes: list[Write]
    failures: list[str]

    def requests(self) -> list[tuple[str, str, int, float]]:
        return [entry for device in self.devices.values() for entry in list(device.log)]

    def as_json(self) -> dict[str, Any]:
        return {"writes": [asdict(write) for write in self.writes], "failures": self.failures}


def score(round_number: int, table: int, *, corrected: bool = False) -> tuple[int, int]:
    """Plausible, varied Gouds 8 scores (under 500: no confirmation asked), never equal."""
    a = 200 + (table * 37 + round_number * 53) % 150
    b = 201 + (table * 61 + round_number * 29) % 150
    if a == b:
        b += 1
    return (a + 7, b) if corrected else (a, b)


# --- preparing (inside Django) ---------------------------------------------------------


def prepare_evening(password: str = PASSWORD) -> Evening:
    """The club, its people and rounds 1-4, written through the services."""
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant, Round
    from competition.services.rounds import round_record_results, round_set_pairings
    from games.services import PairingSpec, ResultEntry, ResultInput

    users = get_user_model().objects
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")

    def account(username: str, role: str, player_name: str) -> Player:
        user = users.create_user(username, password=password)
        player = Player.objects.create(name=player_name, user=user)
        Membership.objects.create(club=club, player=player, role=role)
        return player

    secretary = Membership.Role.SECRETARY
    for username in ("secretaris", "secretaris-1", "secretaris-2", "secretaris-3"):
        account(username, secretary, f"Secretaris {username.rsplit('-', 1)[-1]}")
    account("wedstrijdleider", secretary, "Wedstrijdleider")
    account("penningmeester", secretary, "Penningmeester")

    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug="clubcompetitie", rules=Competition.Rules.GOUDS_8
    )
    Competition.objects.create(
        club=club, name="Zomeravonden", slug="zomer", rules=Competition.Rules.GOUDS_8
    )
    players = Player.objects.bulk_create(Player(name=f"Speler {i:02d}") for i in range(PLAYERS))
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in players)
    Entrant.objects.bulk_create(Entrant(competition=competition, player=p) for p in players)
    # The last four players have accounts: they enter their own game of round 4.
    for number, player in enumerate(players[-4:], 1):
        player.user = users.create_user(f"speler-{number}", password=password)
        player.save(update_fields=["user"])

    sheets = demo_scoresheets()
    round_games: dict[str, list[int]] = {}
    for number in range(1, 5):
        round_obj = Round.objects.create(
            competition=competition, number=number, status=Round.Status.PUBLISHED
        )
        # A different opponent each round (a rotation), so the pairing of round 5 has
        # history to respect; in round 4 the last two tables hold the players with accounts.
        order = players[:1] + players[1:][number:] + players[1:][:number]
        if number == 4:
            order = players
        specs = [
            PairingSpec(
                player_a=order[2 * table].pk,
                player_b=order[2 * table + 1].pk,
                table=table + 1,
                starter=sheets[table % len(sheets)].starter if number == 4 else "",
            )
            for table in range(TABLES)
        ]
        games = round_set_pairings(round=round_obj, pairings=specs)
        round_games[str(number)] = [game.pk for game in games]
        if number == 1:
            round_record_results(
                round=round_obj,
                entries=[
                    ResultEntry(game.pk, ResultInput("normal", *score(1, table)))
                    for table, game in enumerate(games, 1)
                ],
                by=None,
            )
    round_4 = round_games["4"]
    return Evening(
        club=club.slug,
        competition=competition.slug,
        import_competition="zomer",
        board_games=round_4[:BOARDS],
        results_rounds={"secretaris-1": 2, "secretaris-2": 3},
        round_games=round_games,
        corrections=round_games["1"][:4],
        player_games=[
            {"game": round_4[10], "first": "speler-1", "second": "speler-2", "action": "confirm"},
            {"game": round_4[11], "first": "speler-3", "second": "speler-4", "action": "dispute"},
        ],
        password=password,
    )


# --- the evening (plain HTTP) ----------------------------------------------------------


def _version(reply: Response, what: str) -> int:
    match = VERSION.search(reply.body) if reply.status == 200 else None
    if match is None:
        raise RuntimeError(f"{what}: HTTP {reply.status}, no version on the page")
    return int(match.group(1))


class _Actors:
    """The actors of one evening, each a bounded list of requests on one device."""

    def __init__(self, evening: Evening, devices: dict[str, Device]) -> None:
        self.evening = evening
        self.devices = devices
        self.writes: list[Write] = []
        self.entered = {game["game"]: threading.Event() for game in evening.player_games}
        self.disputed = threading.Event()
        self.sheets = demo_scoresheets()

    def record(self, actor: str, kind: str, reply: Response, **data: Any) -> Response:
        self.writes.append(Write(actor, kind, reply.status, data))
        return reply

    # Boards: one device per table, every move once (a refusal is not tried again).
    def board(self, index: int) -> None:
        device = self.devices[f"bord-{index + 1}"]
        game_id = self.evening.board_games[index]
        sheet: Scoresheet = self.sheets[index % len(self.sheets)]
        for number, (notation, rack) in enumerate(sheet.moves, 1):
            version = device.board_version(game_id)
            reply = device.save_move(game_id, notation, rack, version=version)
            self.record("secretaris", "move", reply, game=game_id, number=number, notation=notation)
            if reply.status != 302:
                return  # the game cannot go on from a refused move

    # Results pages: the first six tables, then the rest, then a correction of table 1.
    def results_page(self, username: str) -> None:
        device = self.devices[username]
        number = self.evening.results_rounds[username]
        url = f"{self.evening.base}beheer/ronde/{number}/uitslagen/"
        games = self.evening.round_games[str(number)]
        for tables, corrected in ((range(1, 7), False), (range(7, TABLES + 1), False), ([1], True)):
            page = device.get(url)
            data = form_values(page.body, "results-form")
            results = {}
            for index in range(TABLES):
                if int(data[f"form-{index}-game"]) not in games:
                    raise RuntimeError(f"{url}: row {index} is not a game of round {number}")
                table = games.index(int(data[f"form-{index}-game"])) + 1
                if table in tables:
                    a, b = score(number, table, corrected=corrected)
                    data |= {f"form-{index}-score_a": str(a), f"form-{index}-score_b": str(b)}
                    data[f"form-{index}-kind"] = "normal"
                    if corrected:
                        data[f"form-{index}-reason"] = "Telfout op het scoreformulier"
                    results[games[table - 1]] = (a, b)
            reply = device.post(url, data)
            self.record(
                username, "results", reply, round=number, results=results, corrected=corrected
            )

    # Corrections of round 1, then the decision on the disputed game of round 4.
    def corrections(self) -> None:
        device = self.devices["secretaris-3"]
        for table, game_id in enumerate(self.evening.corrections, 1):
            url = f"{self.evening.base}beheer/partij/{game_id}/corrigeren/"
            version = _version(device.get(url), url)
            a, b = score(1, table, corrected=True)
            reply = device.post(
                url,
                {
                    "kind": "normal",
                    "score_a": str(a),
                    "score_b": str(b),
                    "reason": "Overgeschreven van het wedstrijdblad",
                    "version": str(version),
                },
            )
            self.record("secretaris-3", "correct", reply, game=game_id, result=(a, b))
        if not self.disputed.wait(120):
            raise RuntimeError("the disputed game was never disputed")
        game_id = next(g["game"] for g in self.evening.player_games if g["action"] == "dispute")
        url = f"/partij/{game_id}/uitslag/"
        version = _version(device.get(url), url)
        reply = device.post(
            url,
            {
                "action": "override",
                "version": str(version),
                "kind": "normal",
                "score_a": "333",
                "score_b": "222",
                "reason": "Beide scoreformulieren nageteld",
            },
        )
        self.record("secretaris-3", "override", reply, game=game_id, result=(333, 222))

    # Players: the first enters; the second, once that is done, confirms or disputes.
    def player(self, game: dict[str, Any], first: bool) -> None:
        username = game["first"] if first else game["second"]
        device = self.devices[username]
        url = f"/partij/{game['game']}/uitslag/"
        device.get("/mijn-partijen/")
        if not first and not self.entered[game["game"]].wait(120):
            raise RuntimeError(f"{username}: the opponent never entered the result")
        version = _version(device.get(url), url)
        if not first and game["action"] == "confirm":
            reply = device.post(url, {"action": "confirm", "version": str(version)})
            self.record(username, "confirm", reply, game=game["game"])
            return
        scores = (310, 280) if first else (280, 310)
        reply = device.post(
            url,
            {
                "action": "enter",
                "version": str(version),
                "kind": "normal",
                "score_a": str(scores[0]),
                "score_b": str(scores[1]),
            },
        )
        kind = "enter" if first else "dispute"
        self.record(username, kind, reply, game=game["game"], result=scores)
        if first:
            self.entered[game["game"]].set()
        else:
            self.disputed.set()

    # The director: add round 5, generate its pairing, publish it.
    def director(self) -> None:
        device = self.devices["wedstrijdleider"]
        base = self.evening.base
        reply = device.post(f"{base}beheer/ronde/nieuw/", {"number": str(NEXT_ROUND), "date": ""})
        self.record("wedstrijdleider", "round", reply, round=NEXT_ROUND)
        url = f"{base}beheer/ronde/{NEXT_ROUND}/indeling/"
        for action in ("generate", "publish"):
            page = device.get(url)
            shown = PAIRING_VERSION.search(page.body)
            if shown is None:
                raise RuntimeError(f"{url}: HTTP {page.status}, no pairing version")
            data = {"action": action, "pairing": shown[1].decode()}
            if action == "generate":
                data["system"] = "swiss"
            reply = device.post(url, data)
            self.record("wedstrijdleider", action, reply, round=NEXT_ROUND)

    # The import: upload, look at the preview, confirm it.
    def importer(self) -> None:
        device = self.devices["penningmeester"]
        url = f"/{self.evening.club}/{self.evening.import_competition}/beheer/importeren/"
        device.get(url)
        preview = device.post(url, {}, files={"file": ("zomer.csv", IMPORT_CSV)})
        if preview.status != 200 or b"import-confirm" not in preview.body:
            self.record("penningmeester", "import", preview)
            return
        answer = {**form_values(preview.body, "import-confirm"), "confirm": "1"}
        self.record("penningmeester", "import", device.post(url, answer))

    def tasks(self) -> list[Callable[[], None]]:
        tasks: list[Callable[[], None]] = [
            lambda index=index: self.board(index) for index in range(BOARDS)
        ]
        tasks += [lambda name=name: self.results_page(name) for name in self.evening.results_rounds]
        tasks += [self.corrections, self.director, self.importer]
        tasks += [
            lambda game=game, first=first: self.player(game, first)
            for game in self.evening.player_games
            for first in (True, False)
        ]
        return tasks


def actors(evening: Evening) -> list[str]:
    """Every device of the evening, named by who holds it (boards: bord-1 .. bord-10)."""
    names = [f"bord-{index + 1}" for index in range(BOARDS)]
    names += [*evening.results_rounds, "secretaris-3", "wedstrijdleider", "penningmeester"]
    return names + [game[side] for game in evening.player_games for side in ("first", "second")]


def username_of(actor: str) -> str:
    return "secretaris" if actor.startswith("bord-") else actor


def run_evening(base_url: str, evening: Evening, *, timeout: float = 120.0) -> EveningRun:
    """Log every device in, then start everyone at the same moment; wait for all."""
    devices = {}
    for name in actors(evening):
        device = Device(base_url, timeout=timeout)
        device.log_in(username_of(name), evening.password)
        device.log.clear()
        devices[name] = device
    play = _Actors(evening, devices)
    tasks = play.tasks()
    barrier = threading.Barrier(len(tasks))
    failures: list[str] = []

    def run(task: Callable[[], None]) -> None:
        barrier.wait()
        try:
            task()
        except Exception as error:  # reported with the run, not lost in the thread
            failures.append(f"{type(error).__name__}: {error}")
            play.disputed.set()  # nobody waits for an actor that stopped
            for event in play.entered.values():
                event.set()

    threads = [threading.Thread(target=run, args=(task,), daemon=True) for task in tasks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    if any(thread.is_alive() for thread in threads):
        failures.append(f"a device did not finish within {timeout} s")
    return EveningRun(devices=devices, writes=list(play.writes), failures=failures)


REQUEST_KINDS = (
    ("POST", re.compile(r"^/partij/\d+/bord/$"), "move save"),
    ("GET", re.compile(r"^/partij/\d+/bord/$"), "board page"),
    ("POST", re.compile(r"/beheer/ronde/\d+/uitslagen/$"), "results page save"),
    ("GET", re.compile(r"/beheer/ronde/\d+/uitslagen/$"), "results page"),
    ("POST", re.compile(r"/beheer/partij/\d+/corrigeren/$"), "correction save"),
    ("POST", re.compile(r"^/partij/\d+/uitslag/$"), "player result save"),
    ("POST", re.compile(r"/beheer/ronde/(nieuw|\d+/indeling)/$"), "round and pairing save"),
    ("POST", re.compile(r"/beheer/importeren/$"), "import upload and confirm"),
)


def request_kind(method: str, path: str) -> str:
    for kind_method, pattern, kind in REQUEST_KINDS:
        if method == kind_method and pattern.search(path):
            return kind
    return "other page (GET)" if method == "GET" else "other POST"


# --- checking (inside Django) ----------------------------------------------------------


def history_baseline() -> int:
    """The last history entry before the evening: the check counts the ones after it."""
    from clubs.models import HistoryEntry

    return HistoryEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def round_statuses() -> dict[tuple[str, int], str]:
    from competition.models import Round

    return {
        (slug, number): status
        for slug, number, status in Round.objects.values_list(
            "competition__slug", "number", "status"
        )
    }


def check_evening(
    evening: Evening,
    writes: list[Write],
    *,
    history_after: int,
    statuses_before: dict[tuple[str, int], str],
) -> list[str]:
    """Every problem the database shows after the evening, as sentences for a report.

    Checks only what the acknowledged `writes` say was written (a write the server
    refused must have left nothing), so it also serves after a server was killed.
    """
    problems: list[str] = []
    problems += _check_moves(evening, writes)
    problems += _check_results(evening, writes)
    problems += _check_pairing(writes)
    problems += _check_import(writes)
    problems += check_round_statuses()
    problems += _check_history(evening, writes, history_after, statuses_before)
    return problems


def _acknowledged(writes: list[Write], kind: str) -> list[Write]:
    return [write for write in writes if write.kind == kind and write.acknowledged]


def _check_moves(evening: Evening, writes: list[Write]) -> list[str]:
    from games.models import Game, Move

    problems = []
    sheets = demo_scoresheets()
    saved = {(w.data["game"], w.data["number"]): w for w in _acknowledged(writes, "move")}
    for index, game_id in enumerate(evening.board_games):
        sheet = sheets[index % len(sheets)]
        numbers = list(
            Move.objects.filter(game_id=game_id).order_by("number").values_list("number", flat=True)
        )
        expected = sorted(number for game, number in saved if game == game_id)
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"game {game_id}: move numbers with gaps or doubles: {numbers}")
        missing = sorted(set(expected) - set(numbers))
        extra = sorted(set(numbers) - set(expected))
        if missing:
            problems.append(f"game {game_id}: acknowledged moves missing: {missing}")
        if extra:
            problems.append(f"game {game_id}: moves stored that nobody was told of: {extra}")
        if len(expected) == len(sheet.moves) and not missing:
            game = Game.objects.get(pk=game_id)
            if (game.score_a, game.score_b) != sheet.final_scores:
                problems.append(
                    f"game {game_id}: {game.score_a}-{game.score_b}, "
                    f"the moves give {sheet.final_scores}"
                )
            if game.confirmation != "confirmed":
                problems.append(f"game {game_id}: entered by the secretary, {game.confirmation}")
    return problems


def _check_results(evening: Evening, writes: list[Write]) -> list[str]:
    """The last acknowledged result of each game is the stored one, confirmed or not as
    the scenario says."""
    from games.models import Game

    expected: dict[int, tuple[tuple[int, int], str]] = {}
    for write in writes:
        if not write.acknowledged:
            continue
        if write.kind == "results":
            for game_id, result in write.data["results"].items():
                expected[int(game_id)] = (tuple(result), "confirmed")
        elif write.kind in ("correct", "override"):
            expected[write.data["game"]] = (tuple(write.data["result"]), "confirmed")
        elif write.kind == "enter":
            expected[write.data["game"]] = (tuple(write.data["result"]), "provisional")
        elif write.kind == "confirm":
            result, _state = expected.get(write.data["game"], ((None, None), ""))
            expected[write.data["game"]] = (result, "confirmed")
        elif write.kind == "dispute":
            result, _state = expected.get(write.data["game"], ((None, None), ""))
            expected[write.data["game"]] = (result, "disputed")
    problems = []
    games = Game.objects.in_bulk(list(expected))
    for game_id, (result, confirmation) in sorted(expected.items()):
        game = games[game_id]
        if (game.score_a, game.score_b) != result or game.confirmation != confirmation:
            problems.append(
                f"game {game_id}: stored {game.score_a}-{game.score_b} {game.confirmation}, "
                f"acknowledged {result[0]}-{result[1]} {confirmation}"
            )
    return problems


def _check_pairing(writes: list[Write]) -> list[str]:
    from competition.models import Entrant, Round
    from games.models import Seat

    done = {write.kind for write in writes if write.acknowledged and write.data.get("round")}
    rounds = list(Round.objects.filter(competition__slug="clubcompetitie", number=NEXT_ROUND))
    problems = []
    if "round" in done and len(rounds) != 1:
        problems.append(f"round {NEXT_ROUND}: added once, {len(rounds)} rows")
    if not rounds:
        return problems
    round_obj = rounds[0]
    seated = sorted(Seat.objects.filter(round=round_obj).values_list("player_id", flat=True))
    entrants = sorted(
        Entrant.objects.filter(competition=round_obj.competition).values_list(
            "player_id", flat=True
        )
    )
    if "generate" in done and seated != entrants:
        problems.append(f"round {NEXT_ROUND}: {len(seated)} seats for {len(entrants)} entrants")
    if "generate" not in done and seated:
        problems.append(f"round {NEXT_ROUND}: a pairing written that nobody was told of")
    if "publish" in done and round_obj.status != Round.Status.PUBLISHED:
        problems.append(f"round {NEXT_ROUND}: published, but its status is {round_obj.status}")
    if "publish" not in done and round_obj.status != Round.Status.DRAFT:
        problems.append(f"round {NEXT_ROUND}: {round_obj.status}, nobody was told it was published")
    return problems


def _check_import(writes: list[Write]) -> list[str]:
    from competition.models import Entrant, Round
    from games.models import Game

    done = bool(_acknowledged(writes, "import"))
    rounds = Round.objects.filter(competition__slug="zomer").count()
    games = Game.objects.filter(round__competition__slug="zomer")
    settled = games.exclude(outcome="pending").count()
    entrants = Entrant.objects.filter(competition__slug="zomer").count()
    found = (rounds, games.count(), settled, entrants)
    expected = (IMPORT_ROUNDS, IMPORT_GAMES, IMPORT_GAMES, IMPORT_PLAYERS) if done else (0, 0, 0, 0)
    if found != expected:
        return [
            f"import {'confirmed' if done else 'not acknowledged'}: rounds, games, results, "
            f"entrants {found}, expected {expected}"
        ]
    return []


def check_round_statuses() -> list[str]:
    """Every round's status is the one its games give (`round_update_status`'s rule)."""
    from competition.models import Round
    from competition.services.rounds import _counted, status_from_games

    problems = []
    for round_obj in Round.objects.select_related("competition"):
        games = list(round_obj.games.values_list("outcome", "confirmation"))
        played, pending = _counted(games)
        wanted = status_from_games(current=round_obj.status, played=played, pending=pending)
        if wanted != round_obj.status:
            problems.append(
                f"{round_obj.competition.slug} round {round_obj.number}: {round_obj.status}, "
                f"its games ({played} settled, {pending} open) make it {wanted}"
            )
    return problems


def _check_history(
    evening: Evening,
    writes: list[Write],
    history_after: int,
    statuses_before: dict[tuple[str, int], str],
) -> list[str]:
    """One entry per acknowledged change, by whom it was made; none for a refused one."""
    from clubs.models import HistoryEntry
    from competition.models import Competition

    competitions = dict(Competition.objects.values_list("slug", "pk"))
    main = competitions[evening.competition]
    zomer = competitions[evening.import_competition]
    round_of = {
        game_id: int(number) for number, ids in evening.round_games.items() for game_id in ids
    }
    expected: Counter = Counter()

    def game_entry(action: str, game_id: int, by: str, reason_code: str = "") -> None:
        expected[(action, main, round_of[game_id], game_id, by, reason_code)] += 1

    stored_results: dict[int, tuple[int, int]] = {}
    moves_per_game = Counter()
    for write in writes:
        if not write.acknowledged:
            continue
        data, by = write.data, write.actor
        if write.kind == "move":
            game_entry("move.add", data["game"], by)
            moves_per_game[data["game"]] += 1
        elif write.kind == "results":
            for game_id, result in data["results"].items():
                game_id = int(game_id)
                if stored_results.get(game_id) != tuple(result):
                    had = game_id in stored_results
                    game_entry("result.correct" if had else "result.enter", game_id, by)
                stored_results[game_id] = tuple(result)
        elif write.kind == "correct":
            game_entry("result.correct", data["game"], by)
        elif write.kind == "enter":
            game_entry("result.enter", data["game"], by)
        elif write.kind == "confirm":
            game_entry("result.confirm", data["game"], by)
        elif write.kind == "dispute":
            game_entry("result.dispute", data["game"], by)
        elif write.kind == "override":
            game_entry("result.correct", data["game"], by)
            game_entry("result.override", data["game"], by)
        elif write.kind in ("round", "generate", "publish"):
            action = {
                "round": "round.create",
                "generate": "pairing.generate",
                "publish": "pairing.publish",
            }[write.kind]
            expected[(action, main, NEXT_ROUND, None, by, "")] += 1
        elif write.kind == "import":
            expected[("import.csv", zomer, None, None, by, "")] += 1
            for number in range(1, IMPORT_ROUNDS + 1):
                for _table in range(IMPORT_GAMES // IMPORT_ROUNDS):
                    expected[("result.enter", zomer, number, "?", by, "csv_import")] += 1
    sheets = demo_scoresheets()
    for index, game_id in enumerate(evening.board_games):
        if moves_per_game[game_id] == len(sheets[index % len(sheets)].moves):
            game_entry("result.enter", game_id, "secretaris", "from_moves")
    # A round's status entry for each round whose status the evening changed.
    for (slug, number), status in round_statuses().items():
        if (slug, number) == (evening.competition, NEXT_ROUND):
            continue  # a new round's pairing is published, not its status (_check_pairing)
        before = statuses_before.get((slug, number), "draft" if slug != "zomer" else "published")
        if status != before:
            expected[("round.status", competitions[slug], number, None, "*", "from_results")] += 1

    found: Counter = Counter()
    for entry in HistoryEntry.objects.filter(pk__gt=history_after):
        by = entry.by_name
        game_id = entry.game_id
        if entry.action == "round.status":
            by = "*"  # the board's after-commit update has no person; the others do
        if entry.competition_id == zomer and entry.action == "result.enter":
            game_id = "?"
        key = (
            entry.action,
            entry.competition_id,
            entry.round_number,
            game_id,
            by,
            entry.reason_code,
        )
        found[key] += 1
    problems = []
    for key in sorted(set(expected) | set(found), key=str):
        if expected[key] != found[key]:
            problems.append(
                f"history {key}: {found[key]} entries, {expected[key]} acknowledged changes"
            )
    return problems
