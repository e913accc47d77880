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

import http.client
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.live import Device, Response, Scoresheet, demo_scoresheets, form_values
from tests.seats import pair_spec

BOARDS = 10
TABLES = 12  # round 4: ten boards, tables 11 and 12 entered by their players
PLAYERS = 2 * TABLES
NEXT_ROUND = 5
PASSWORD = "bordpunt-avond"
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
    prefix: str = ""  # before the club's slug and every username

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
    #: The answer said it was saved (`tests.live.Response.saved`): a redirect, or the
    #: board screen's new board.
    saved: bool = False

    @property
    def acknowledged(self) -> bool:
        return self.saved


@dataclass
class EveningRun:
    devices: dict[str, Device]
    writes: list[Write]
    failures: list[str]
    seconds: float  # from the moment everyone starts (after the logins) to the last one done

    def requests(self) -> list[tuple[str, str, int, float]]:
        return [entry for device in self.devices.values() for entry in list(device.log)]


def score(round_number: int, table: int, *, corrected: bool = False) -> tuple[int, int]:
    """Plausible, varied Gouds 8 scores (under 500: no confirmation asked), never equal."""
    a = 200 + (table * 37 + round_number * 53) % 150
    b = 201 + (table * 61 + round_number * 29) % 150
    if a == b:
        b += 1
    return (a + 7, b) if corrected else (a, b)


# --- preparing (inside Django) ---------------------------------------------------------


def prepare_evening(password: str = PASSWORD, prefix: str = "") -> Evening:
    """The club, its people and rounds 1-4, written through the services. `prefix` goes
    before the club's slug and every username, for several evenings in one database."""
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant, Round
    from competition.services.rounds import round_record_results, round_set_pairings
    from games.services import ResultEntry, ResultInput

    users = get_user_model().objects
    club = Club.objects.create(name=f"De Goudse Letters {prefix}".strip(), slug=f"{prefix}gouda")

    def account(username: str, role: str, player_name: str) -> Player:
        user = users.create_user(prefix + username, password=password)
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
        player.user = users.create_user(f"{prefix}speler-{number}", password=password)
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
            pair_spec(
                player_a=order[2 * table].pk,
                player_b=order[2 * table + 1].pk,
                table=table + 1,
                starter=sheets[table % len(sheets)].starter if number == 4 else None,
            )
            for table in range(TABLES)
        ]
        games = round_set_pairings(round=round_obj, pairings=specs)
        round_games[str(number)] = [game.pk for game in games]
        if number == 1:
            round_record_results(
                round=round_obj,
                entries=[
                    ResultEntry(game.pk, ResultInput.of_pair("normal", *score(1, table)))
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
        prefix=prefix,
    )


# --- the evening (plain HTTP) ----------------------------------------------------------


def _version(reply: Response, what: str) -> int:
    if reply.version is None:
        raise RuntimeError(f"{what}: HTTP {reply.status}, no version on the page")
    return reply.version


class _Actors:
    """The actors of one evening, each a bounded list of requests on one device."""

    def __init__(self, evening: Evening, devices: dict[str, Device]) -> None:
        self.evening = evening
        self.devices = devices
        self.writes: list[Write] = []
        self.entered = {game["game"]: threading.Event() for game in evening.player_games}
        self.disputed = threading.Event()
        self.sheets = demo_scoresheets()

    def send(self, actor: str, kind: str, request: Callable[[], Response], **data: Any) -> Response:
        """Send one write and keep it with its answer; one without an answer (the server
        gone) is kept as status 0: it may or may not have been written, but whole."""
        try:
            reply = request()
        except (OSError, http.client.HTTPException):
            self.writes.append(Write(actor, kind, 0, data))
            raise
        self.writes.append(Write(actor, kind, reply.status, data, saved=reply.saved))
        return reply

    # Boards: one device per table, every move once (a refusal is not tried again), as the
    # board screen saves: each move from the board the last save answered with.
    def board(self, index: int) -> None:
        device = self.devices[f"bord-{index + 1}"]
        game_id = self.evening.board_games[index]
        sheet: Scoresheet = self.sheets[index % len(self.sheets)]
        version = device.board_version(game_id)
        for number, (notation, rack) in enumerate(sheet.moves, 1):
            reply = self.send(
                "secretaris",
                "move",
                lambda n=notation, r=rack, v=version: device.save_move(
                    game_id, n, r, version=v, screen=True
                ),
                game=game_id,
                number=number,
            )
            if not reply.saved or reply.version is None:
                return  # the game cannot go on from a refused move
            version = reply.version

    # Results pages: the first six tables, then the rest, then a correction of table 1.
    def results_page(self, username: str) -> None:
        device = self.devices[username]
        number = self.evening.results_rounds[username]
        url = f"{self.evening.base}beheer/ronde/{number}/uitslagen/"
        games = self.evening.round_games[str(number)]
        for tables, corrected in ((range(1, 7), False), (range(7, TABLES + 1), False), ([1], True)):
            data = form_values(device.get(url).body, "results-form")
            results = {}
            for index in range(TABLES):
                game_id = int(data[f"form-{index}-game"])
                if game_id not in games:
                    raise RuntimeError(f"{url}: row {index} is not a game of round {number}")
                table = games.index(game_id) + 1
                if table in tables:
                    a, b = score(number, table, corrected=corrected)
                    data |= {f"form-{index}-score_a": str(a), f"form-{index}-score_b": str(b)}
                    data[f"form-{index}-kind"] = "normal"
                    if corrected:
                        data[f"form-{index}-reason"] = "Telfout op het scoreformulier"
                    results[str(game_id)] = (a, b)
            self.send(
                username,
                "results",
                lambda data=data: device.post(url, data),
                round=number,
                results=results,
            )

    # Corrections of round 1, then the decision on the disputed game of round 4.
    def corrections(self) -> None:
        device = self.devices["secretaris-3"]
        for table, game_id in enumerate(self.evening.corrections, 1):
            url = f"{self.evening.base}beheer/partij/{game_id}/corrigeren/"
            version = _version(device.get(url), url)
            a, b = score(1, table, corrected=True)
            form = {
                "kind": "normal",
                "score_a": str(a),
                "score_b": str(b),
                "reason": "Overgeschreven van het wedstrijdblad",
                "version": str(version),
            }
            self.send(
                "secretaris-3",
                "correct",
                lambda url=url, form=form: device.post(url, form),
                game=game_id,
                result=(a, b),
            )
        if not self.disputed.wait(120):
            raise RuntimeError("the disputed game was never disputed")
        game_id = next(g["game"] for g in self.evening.player_games if g["action"] == "dispute")
        url = f"/partij/{game_id}/uitslag/"
        form = {
            "action": "override",
            "version": str(_version(device.get(url), url)),
            "kind": "normal",
            "score_a": "333",
            "score_b": "222",
            "reason": "Beide scoreformulieren nageteld",
        }
        self.send(
            "secretaris-3",
            "override",
            lambda: device.post(url, form),
            game=game_id,
            result=(333, 222),
        )

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
            form = {"action": "confirm", "version": str(version)}
            self.send(username, "confirm", lambda: device.post(url, form), game=game["game"])
            return
        scores = (310, 280) if first else (280, 310)
        form = {
            "action": "enter",
            "version": str(version),
            "kind": "normal",
            "score_a": str(scores[0]),
            "score_b": str(scores[1]),
        }
        kind = "enter" if first else "dispute"
        reply = self.send(
            username, kind, lambda: device.post(url, form), game=game["game"], result=scores
        )
        if reply.status == 302:
            (self.entered[game["game"]] if first else self.disputed).set()

    # The director: add round 5, generate its pairing, publish it.
    def director(self) -> None:
        device = self.devices["wedstrijdleider"]
        base = self.evening.base
        form = {"number": str(NEXT_ROUND), "date": ""}
        self.send(
            "wedstrijdleider",
            "round",
            lambda: device.post(f"{base}beheer/ronde/nieuw/", form),
            round=NEXT_ROUND,
        )
        url = f"{base}beheer/ronde/{NEXT_ROUND}/indeling/"
        for action in ("generate", "publish"):
            page = device.get(url)
            shown = PAIRING_VERSION.search(page.body)
            if shown is None:
                raise RuntimeError(f"{url}: HTTP {page.status}, no pairing version")
            data = {"action": action, "pairing": shown[1].decode()}
            if action == "generate":
                data["system"] = "swiss"
            reply = self.send(
                "wedstrijdleider",
                action,
                lambda data=data: device.post(url, data),
                round=NEXT_ROUND,
            )
            if reply.status != 302:
                return

    # The import: upload (kept in the session only), look at the preview, confirm it.
    def importer(self) -> None:
        device = self.devices["penningmeester"]
        url = f"/{self.evening.club}/{self.evening.import_competition}/beheer/importeren/"
        device.get(url)
        preview = device.post(url, {}, files={"file": ("zomer.csv", IMPORT_CSV)})
        if preview.status != 200 or b"import-confirm" not in preview.body:
            self.writes.append(Write("penningmeester", "import", preview.status))
            return
        answer = {**form_values(preview.body, "import-confirm"), "confirm": "1"}
        self.send("penningmeester", "import", lambda: device.post(url, answer))

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


def username_of(actor: str, prefix: str = "") -> str:
    return prefix + ("secretaris" if actor.startswith("bord-") else actor)


def run_evening(
    base_url: str,
    evening: Evening,
    *,
    timeout: float = 120.0,
    make_device: Callable[..., Device] = Device,
) -> EveningRun:
    """Log every device in, then start everyone at the same moment; wait for all.
    `make_device` makes each one (benchmarks/faults.py watches what they send)."""
    devices = {}
    for name in actors(evening):
        device = make_device(base_url, timeout=timeout)
        device.log_in(username_of(name, evening.prefix), evening.password)
        device.log.clear()
        devices[name] = device
    play = _Actors(evening, devices)
    tasks = play.tasks()
    started: list[float] = []
    barrier = threading.Barrier(len(tasks), action=lambda: started.append(time.monotonic()))
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
    seconds = time.monotonic() - started[0] if started else 0.0
    return EveningRun(devices=devices, writes=list(play.writes), failures=failures, seconds=seconds)


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


@dataclass(frozen=True)
class Problem:
    """What the database shows wrong after an evening. `category`: "missing" (an
    acknowledged write not there), "duplicated", "half-written" (part of one write, or a
    round whose status its games contradict), "unacknowledged" (a change nobody was told
    of, nor explained by a write left without an answer), "history"."""

    category: str
    text: str

    def __str__(self) -> str:
        return f"{self.category}: {self.text}"


def history_baseline() -> int:
    """The last history entry before the evening: the check counts the ones after it."""
    from clubs.models import HistoryEntry

    return HistoryEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def round_statuses(club: str) -> dict[str, str]:
    """Every round of the club's competitions, as "slug/number": status (JSON keys)."""
    from competition.models import Round

    rows = Round.objects.filter(competition__club__slug=club).values_list(
        "competition__slug", "number", "status"
    )
    return {f"{slug}/{number}": status for slug, number, status in rows}


def check_evening(
    evening: Evening,
    writes: list[Write],
    *,
    history_after: int,
    statuses_before: dict[str, str],
) -> list[Problem]:
    """Every problem the database shows after the evening.

    What an acknowledged write (its answer said saved) made must be there exactly once; a
    refused one must have left nothing; one without an answer (status 0: the server was
    killed) may be there or not, but whole. So this serves after a server was killed too.
    """
    return [
        *_check_moves(evening, writes),
        *_check_results(writes),
        *_check_pairing(evening, writes),
        *_check_import(evening, writes),
        *check_round_statuses(evening.club),
        *_check_history(evening, writes, history_after, statuses_before),
    ]


def _of(writes: list[Write], kind: str) -> tuple[list[Write], list[Write]]:
    """The acknowledged writes of `kind`, and those left without an answer."""
    kind_writes = [write for write in writes if write.kind == kind]
    return (
        [write for write in kind_writes if write.acknowledged],
        [write for write in kind_writes if write.status == 0],
    )


def _check_moves(evening: Evening, writes: list[Write]) -> list[Problem]:
    from games.models import Game, Move

    problems = []
    sheets = demo_scoresheets()
    acknowledged, unanswered = _of(writes, "move")
    saved = {(w.data["game"], w.data["number"]) for w in acknowledged}
    maybe = {(w.data["game"], w.data["number"]) for w in unanswered}
    for index, game_id in enumerate(evening.board_games):
        sheet = sheets[index % len(sheets)]
        numbers = list(
            Move.objects.filter(game_id=game_id).order_by("number").values_list("number", flat=True)
        )
        expected = {number for game, number in saved if game == game_id}
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(Problem("half-written", f"game {game_id}: moves {numbers}"))
        for number in sorted(expected - set(numbers)):
            problems.append(Problem("missing", f"game {game_id}: move {number}"))
        for number in sorted(set(numbers) - expected - {n for g, n in maybe if g == game_id}):
            problems.append(Problem("unacknowledged", f"game {game_id}: move {number}"))
        game = Game.objects.get(pk=game_id)
        if len(numbers) == len(sheet.moves):
            if (game.scores[0], game.scores[1]) != sheet.final_scores or not game.has_result:
                problems.append(
                    Problem(
                        "half-written",
                        f"game {game_id}: {game.scores[0]}-{game.scores[1]} {game.outcome}, "
                        f"its moves give {sheet.final_scores}",
                    )
                )
            elif game.confirmation != "confirmed":
                problems.append(
                    Problem(
                        "half-written",
                        f"game {game_id}: the secretary's moves, {game.confirmation}",
                    )
                )
        elif game.has_result:
            problems.append(
                Problem("half-written", f"game {game_id}: a result after {len(numbers)} moves")
            )
    return problems


ANY = ((None, None), "*")


def _check_results(writes: list[Write]) -> list[Problem]:
    """Each game's stored result is its last acknowledged one (or that of a write left
    without an answer after it), with the confirmation the scenario gives; a write of
    several games is there for all of them or for none."""
    from games.models import Game

    # Per game: the (scores, confirmation) it may have now.
    allowed: dict[int, set[tuple[Any, str]]] = {}
    multi: list[tuple[Write, dict[int, tuple[int, int]]]] = []

    def after(write: Write, game_id: int) -> set[tuple[Any, str]]:
        current = allowed.get(game_id, {((None, None), "")})
        if write.kind in ("results", "correct", "override"):
            result = tuple(
                write.data["results"][str(game_id)]
                if write.kind == "results"
                else write.data["result"]
            )
            return {(result, "confirmed")}
        if write.kind == "enter":
            return {(tuple(write.data["result"]), "provisional")}
        state = "confirmed" if write.kind == "confirm" else "disputed"
        return {(result, state) for result, _state in current}

    for write in writes:
        if write.kind not in ("results", "correct", "override", "enter", "confirm", "dispute"):
            continue
        if not (write.acknowledged or write.status == 0):
            continue
        game_ids = (
            [int(g) for g in write.data["results"]]
            if write.kind == "results"
            else [write.data["game"]]
        )
        if write.kind == "results" and write.status == 0:
            multi.append((write, {int(g): tuple(r) for g, r in write.data["results"].items()}))
        for game_id in game_ids:
            new = after(write, game_id)
            if write.acknowledged:
                allowed[game_id] = new
            elif game_id in allowed:
                allowed[game_id] |= new
            else:
                allowed[game_id] = {ANY}  # the state before the evening, or this one
    problems = []
    games = Game.objects.in_bulk(list(allowed))
    for game_id, options in sorted(allowed.items()):
        game = games[game_id]
        stored = ((game.scores[0], game.scores[1]), game.confirmation)
        if ANY in options:
            continue
        if stored not in options and not (
            stored == ((None, None), "confirmed") and ((None, None), "") in options
        ):
            wanted = " or ".join(
                f"{r[0]}-{r[1]} {c or 'none'}" for r, c in sorted(options, key=str)
            )
            problems.append(
                Problem(
                    "missing",
                    f"game {game_id}: stored {game.scores[0]}-{game.scores[1]} "
                    f"{game.confirmation}, acknowledged {wanted}",
                )
            )
    for write, results in multi:
        applied = {
            game_id
            for game_id, result in results.items()
            if (games[game_id].scores[0], games[game_id].scores[1]) == result
        }
        if applied and applied != set(results):
            problems.append(
                Problem(
                    "half-written",
                    f"results page of round {write.data['round']}: {len(applied)} of "
                    f"{len(results)} results of one save",
                )
            )
    return problems


def _check_pairing(evening: Evening, writes: list[Write]) -> list[Problem]:
    from competition.models import Entrant, Round
    from games.models import Seat

    def state(kind: str) -> str:
        acknowledged, unanswered = _of(writes, kind)
        return "yes" if acknowledged else "maybe" if unanswered else "no"

    made, generated, published = state("round"), state("generate"), state("publish")
    rounds = list(
        Round.objects.filter(
            competition__club__slug=evening.club,
            competition__slug=evening.competition,
            number=NEXT_ROUND,
        )
    )
    problems = []
    if made == "yes" and not rounds:
        problems.append(Problem("missing", f"round {NEXT_ROUND}: added, not there"))
    if made == "no" and rounds:
        problems.append(Problem("unacknowledged", f"round {NEXT_ROUND}: there, never added"))
    if not rounds:
        return problems
    round_obj = rounds[0]
    seated = sorted(Seat.objects.filter(round=round_obj).values_list("player_id", flat=True))
    entrants = sorted(
        Entrant.objects.filter(competition=round_obj.competition).values_list(
            "player_id", flat=True
        )
    )
    if seated and seated != entrants:
        problems.append(
            Problem(
                "half-written", f"round {NEXT_ROUND}: {len(seated)} seats, {len(entrants)} entrants"
            )
        )
    if generated == "yes" and not seated:
        problems.append(Problem("missing", f"round {NEXT_ROUND}: pairing generated, none there"))
    if generated == "no" and seated:
        problems.append(
            Problem("unacknowledged", f"round {NEXT_ROUND}: a pairing, never generated")
        )
    is_published = round_obj.status == Round.Status.PUBLISHED
    if published == "yes" and not is_published:
        problems.append(
            Problem("missing", f"round {NEXT_ROUND}: published, now {round_obj.status}")
        )
    if published == "no" and is_published:
        problems.append(Problem("unacknowledged", f"round {NEXT_ROUND}: published, never told"))
    return problems


def _check_import(evening: Evening, writes: list[Write]) -> list[Problem]:
    from competition.models import Entrant, Round
    from games.models import Game

    acknowledged, unanswered = _of(writes, "import")
    where = {
        "competition__club__slug": evening.club,
        "competition__slug": evening.import_competition,
    }
    games = Game.objects.filter(**{f"round__{key}": value for key, value in where.items()})
    found = (
        Round.objects.filter(**where).count(),
        games.count(),
        games.exclude(outcome="pending").count(),
        Entrant.objects.filter(**where).count(),
    )
    whole, nothing = (IMPORT_ROUNDS, IMPORT_GAMES, IMPORT_GAMES, IMPORT_PLAYERS), (0, 0, 0, 0)
    text = f"import: rounds, games, results, entrants {found}"
    if found not in (whole, nothing):
        doubled = found == (*(2 * count for count in whole[:3]), whole[3])
        return [Problem("duplicated" if doubled else "half-written", text)]
    if acknowledged and found == nothing:
        return [Problem("missing", text)]
    if not acknowledged and not unanswered and found == whole:
        return [Problem("unacknowledged", text)]
    return []


def cut_off_written(evening: Evening, writes: list[Write]) -> Counter:
    """Of the writes left without an answer, how many are in the database ("written")
    and how many not: whether a kill came before the commit or after it."""
    from competition.models import Round
    from games.models import Game, Move, Seat

    landed: Counter = Counter()
    for write in writes:
        if write.status != 0:
            continue
        data = write.data
        if write.kind == "move":
            there = Move.objects.filter(game_id=data["game"], number=data["number"]).exists()
        elif write.kind == "results":
            there = all(
                Game.objects.filter(pk=int(game_id), score_a=a, score_b=b).exists()
                for game_id, (a, b) in data["results"].items()
            )
        elif write.kind in ("correct", "override", "enter"):
            a, b = data["result"]
            there = Game.objects.filter(pk=data["game"], score_a=a, score_b=b).exists()
        elif write.kind in ("confirm", "dispute"):
            state = "confirmed" if write.kind == "confirm" else "disputed"
            there = Game.objects.filter(pk=data["game"], confirmation=state).exists()
        else:
            rounds = Round.objects.filter(competition__club__slug=evening.club)
            there = {
                "round": rounds.filter(competition__slug=evening.competition, number=NEXT_ROUND),
                "generate": Seat.objects.filter(
                    round__in=rounds.filter(
                        number=NEXT_ROUND, competition__slug=evening.competition
                    )
                ),
                "publish": rounds.filter(number=NEXT_ROUND, status="published"),
                "import": rounds.filter(competition__slug=evening.import_competition),
            }[write.kind].exists()
        landed["written" if there else "not written"] += 1
    return landed


def check_round_statuses(club: str) -> list[Problem]:
    """Every round's status is the one its games give (`round_update_status`'s rule)."""
    from competition.models import Round
    from competition.services.rounds import _counted, status_from_games

    problems = []
    for round_obj in Round.objects.filter(competition__club__slug=club).select_related(
        "competition"
    ):
        games = list(round_obj.games.values_list("outcome", "confirmation"))
        played, pending = _counted(games)
        wanted = status_from_games(current=round_obj.status, played=played, pending=pending)
        if wanted != round_obj.status:
            problems.append(
                Problem(
                    "half-written",
                    f"{round_obj.competition.slug} round {round_obj.number}: "
                    f"{round_obj.status}, its games ({played} settled, {pending} open) make it "
                    f"{wanted}",
                )
            )
    return problems


def _expected_entries(evening: Evening, write: Write, competitions: dict[str, int]) -> Counter:
    """The history entries one write makes (round statuses apart: see _check_history)."""
    main = competitions[evening.competition]
    zomer = competitions[evening.import_competition]
    round_of = {
        game_id: int(number) for number, ids in evening.round_games.items() for game_id in ids
    }
    by = username_of(write.actor, evening.prefix)
    data = write.data
    entries: Counter = Counter()

    def game_entry(action: str, game_id: int, reason_code: str = "") -> None:
        entries[(action, main, round_of[game_id], game_id, by, reason_code)] += 1

    if write.kind == "move":
        game_entry("move.add", data["game"])
        sheets = demo_scoresheets()
        index = evening.board_games.index(data["game"])
        if data["number"] == len(sheets[index % len(sheets)].moves):
            game_entry("result.enter", data["game"], "from_moves")
    elif write.kind == "results":
        for game_id in data["results"]:
            # The scenario's first two saves enter, its third corrects (one table).
            game_entry(
                "result.correct" if len(data["results"]) == 1 else "result.enter", int(game_id)
            )
    elif write.kind in ("correct", "enter", "confirm", "dispute"):
        game_entry(f"result.{write.kind}", data["game"])
    elif write.kind == "override":
        game_entry("result.correct", data["game"])
        game_entry("result.override", data["game"])
    elif write.kind in ("round", "generate", "publish"):
        action = {"round": "round.create", "generate": "pairing.generate"}.get(
            write.kind, "pairing.publish"
        )
        entries[(action, main, NEXT_ROUND, None, by, "")] += 1
    elif write.kind == "import":
        entries[("import.csv", zomer, None, None, by, "")] += 1
        for number in range(1, IMPORT_ROUNDS + 1):
            # Each round the import makes, as every round is made (`round_import`).
            entries[("round.create", zomer, number, None, by, "csv_import")] += 1
            key = ("result.enter", zomer, number, "?", by, "csv_import")
            entries[key] += IMPORT_GAMES // IMPORT_ROUNDS
    return entries


def _check_history(
    evening: Evening,
    writes: list[Write],
    history_after: int,
    statuses_before: dict[str, str],
) -> list[Problem]:
    """One entry per acknowledged change, by whom it was made; none for a refused one;
    for a write without an answer, all of its entries or none."""
    from clubs.models import HistoryEntry
    from competition.models import Competition

    competitions = dict(
        Competition.objects.filter(club__slug=evening.club).values_list("slug", "pk")
    )
    zomer = competitions[evening.import_competition]
    expected: Counter = Counter()
    maybe: Counter = Counter()
    for write in writes:
        if write.acknowledged:
            expected += _expected_entries(evening, write, competitions)
        elif write.status == 0:
            maybe += _expected_entries(evening, write, competitions)
    # A round's status entry for each round whose status the evening changed.
    for key, status in round_statuses(evening.club).items():
        slug, number = key.rsplit("/", 1)
        if (slug, int(number)) == (evening.competition, NEXT_ROUND):
            continue  # a new round's pairing is published, not its status (_check_pairing)
        new = "published" if slug == evening.import_competition else "draft"
        if status != statuses_before.get(key, new):
            expected[
                ("round.status", competitions[slug], int(number), None, "*", "from_results")
            ] += 1

    found: Counter = Counter()
    club_id = Competition.objects.get(pk=zomer).club_id
    for entry in HistoryEntry.objects.filter(pk__gt=history_after, club_id=club_id):
        by = "*" if entry.action == "round.status" else entry.by_name  # the board's has none
        game_id = "?" if entry.competition_id == zomer and entry.game_id else entry.game_id
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
    for key in sorted(set(expected) | set(found) | set(maybe), key=str):
        low, high = expected[key], expected[key] + maybe[key]
        if not low <= found[key] <= high:
            wanted = f"{low}" if low == high else f"{low}-{high}"
            # Too many entries for an acknowledged change: it was made twice.
            category = "history" if found[key] < low else "duplicated" if low else "unacknowledged"
            problems.append(
                Problem(category, f"{key}: {found[key]} history entries, {wanted} expected")
            )
    return problems
