"""Devices at a club evening: real HTTP against a running server, standard library only.

A `Device` logs in like a browser (CSRF cookie, session cookie) and enters a scoresheet on
the board screen move by move as the screen does in a browser: each save (htmx) is answered
with the new board, whose version the next save sends. Used by the live-server tests
(tests/games/test_live_devices.py, tests/competition/test_live_races.py) and by
benchmarks/devices.py, so both measure the same thing.
"""

from __future__ import annotations

import http.client
import re
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, TypeVar

import rules
from rules import gcg

DEMO_GAMES = Path(__file__).resolve().parent.parent / "games" / "demo"
T = TypeVar("T")
VERSION = re.compile(rb'name="version" value="(\d+)"')
#: What htmx sends with the board screen's (boosted) form.
SCREEN_HEADERS = {"HX-Request": "true", "HX-Boosted": "true"}


@dataclass(frozen=True)
class Scoresheet:
    """A recorded Gouds 8 game: who started, the moves as typed, and the final scores
    the rules engine computed by replaying it on one device."""

    name: str
    starter: int  # the position that moves first
    moves: tuple[tuple[str, str], ...]  # (notation, rack)
    final_scores: tuple[int, int]


def demo_scoresheets() -> list[Scoresheet]:
    """The demo games in games/demo, read and replayed by the project's own rules engine."""
    sheets = []
    for path in sorted(DEMO_GAMES.glob("*.gcg")):
        record = gcg.read(gcg.decode(path.read_bytes()), rules=rules.GOUDS_8, tiles=rules.DUTCH)
        game = record.game
        assert game.result is not None, f"{path.name} is not a finished game"
        sheets.append(
            Scoresheet(
                name=path.stem,
                starter=game.first_player,
                moves=tuple(
                    (result.notation or result.move.notation(), result.rack or "")
                    for result in game.history
                ),
                final_scores=tuple(game.result.scores),
            )
        )
    return sheets


@dataclass
class Response:
    status: int
    body: bytes
    location: str = ""
    #: htmx's `HX-Replace-Url`: the board screen's save answers with the new board there.
    replace_url: str = ""
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def saved(self) -> bool:
        """A form's save went through: the redirect of a plain form, or the board screen's
        answer with the new board at the board's own address."""
        return self.status == 302 or (self.status == 200 and bool(self.replace_url))

    @property
    def version(self) -> int | None:
        """The game's version on a board page (the next save's), if the answer is one."""
        match = VERSION.search(self.body) if self.status == 200 else None
        return int(match.group(1)) if match else None


@dataclass
class Device:
    """One phone or tablet: its own cookies, a fresh connection per request."""

    base_url: str
    timeout: float = 60.0
    cookies: dict[str, str] = field(default_factory=dict)
    #: Every request's (method, path, status, seconds), for the benchmark and the asserts.
    log: list[tuple[str, str, int, float]] = field(default_factory=list)
    #: The address this device connects from (tests/hosted_stack.py: not the proxy's).
    source_address: str | None = None

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        files: dict[str, tuple[str, bytes]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        parts = urllib.parse.urlsplit(self.base_url)
        headers, body = self.prepared(data, files, headers)
        source = (self.source_address, 0) if self.source_address else None
        connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=self.timeout, source_address=source
        )
        start = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=headers)
            reply = connection.getresponse()
            content = reply.read()
        finally:
            connection.close()
        seconds = time.perf_counter() - start
        for header in reply.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        self.log.append((method, path, reply.status, seconds))
        return Response(
            reply.status,
            content,
            reply.headers.get("Location", ""),
            reply.headers.get("HX-Replace-Url", ""),
            dict(reply.headers.items()),
        )

    def prepared(
        self,
        data: dict[str, str] | None = None,
        files: dict[str, tuple[str, bytes]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[dict[str, str], bytes | None]:
        """The headers and body this device sends: its cookies, and with a form its CSRF
        token, as its browser does."""
        headers = {
            **(headers or {}),
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        body = None
        if files:
            body, headers["Content-Type"] = _multipart(data or {}, files)
        elif data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if body is not None:
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        return headers, body

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(
        self,
        path: str,
        data: dict[str, str],
        files: dict[str, tuple[str, bytes]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        return self.request("POST", path, data, files, headers)

    def log_in(self, username: str, password: str) -> None:
        self.get("/accounts/login/")
        reply = self.post("/accounts/login/", {"username": username, "password": password})
        if reply.status != 302:
            raise RuntimeError(f"login as {username} failed: HTTP {reply.status}")

    def board_version(self, game_id: int) -> int:
        reply = self.get(f"/partij/{game_id}/bord/")
        if reply.version is None:
            raise RuntimeError(f"board of game {game_id}: HTTP {reply.status}, no version")
        return reply.version

    def save_move(
        self, game_id: int, notation: str, rack: str, *, version: int, screen: bool = False
    ) -> Response:
        """Post one move as the board's form does ("play" with the notation typed whole):
        as a plain form (answered with a redirect), or, `screen`, as the board screen in a
        browser does (htmx: answered with the new board)."""
        return self.post(
            f"/partij/{game_id}/bord/",
            {"version": str(version), "kind": "play", "notation": notation, "rack": rack},
            headers=SCREEN_HEADERS if screen else None,
        )

    def enter_game(self, game_id: int, sheet: Scoresheet, *, attempts: int = 3) -> list[Response]:
        """Enter every move of `sheet` as the board screen does: read the board once, then
        save each move from the board the last save answered with; a refused save is tried
        again from a fresh read up to `attempts` times. Returns every save's answer."""
        replies = []
        version = self.board_version(game_id)
        for notation, rack in sheet.moves:
            for _attempt in range(attempts):
                reply = self.save_move(game_id, notation, rack, version=version, screen=True)
                replies.append(reply)
                if reply.saved and reply.version is not None:
                    version = reply.version
                    break
                version = self.board_version(game_id)
        return replies


def form_values(html: bytes, form_id: str) -> dict[str, str]:
    """What a browser would submit from the form: hidden inputs and the selected options."""
    form = re.search(rb'<form[^>]*id="' + form_id.encode() + rb'".*?</form>', html, re.S)
    if form is None:
        raise RuntimeError(f"no form #{form_id} on the page")
    values = {
        name.decode(): value.decode()
        for name, value in re.findall(rb'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form[0])
    }
    for name, options in re.findall(rb'<select name="([^"]+)".*?>(.*?)</select>', form[0], re.S):
        selected = re.search(rb'<option value="([^"]*)" selected', options)
        values[name.decode()] = selected[1].decode() if selected else ""
    return values


def _multipart(data: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    chunks = []
    for name, value in data.items():
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
        chunks.append(f"{head}{value}\r\n".encode())
    for name, (filename, content) in files.items():
        chunks.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + content
            + b"\r\n"
        )
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def at_once(tasks: list[Callable[[], T]], *, timeout: float = 60.0) -> list[T]:
    """Run every task in its own thread, all released at the same moment; their results
    in order. An exception in any task is raised here, after all have finished."""
    barrier = threading.Barrier(len(tasks))
    results: list[Any] = [None] * len(tasks)
    errors: list[BaseException] = []

    def run(index: int, task: Callable[[], T]) -> None:
        barrier.wait()
        try:
            results[index] = task()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=item) for item in enumerate(tasks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    if any(thread.is_alive() for thread in threads):
        raise TimeoutError(f"a device did not finish within {timeout} s")
    if errors:
        raise errors[0]
    return results


def logged_in_devices(base_url: str, count: int, username: str, password: str) -> list[Device]:
    devices = [Device(base_url) for _ in range(count)]
    for device in devices:
        device.log_in(username, password)
        device.log.clear()
    return devices
