"""TSH division files (``.t``): read and write them, and map them to a tournament of plain
records and back.

Pure Python: this module imports nothing from Django or the apps. TSH (John Chew's
tournament program) keeps one ``.t`` file per division, one line per player::

    Anke de Vries   0 2 3 0; 412 388 50; p12 1 2 0; bordpunt n n b

that is: the name, the rating, the opponent of each round by player number (the line
number, from 1; ``0`` for a bye or no game), a semicolon, the player's own score in each
round (for a round against ``0`` the spread TSH credits: ``50`` for a bye, ``-50`` for a
forfeit loss), and then more ``; key values...`` fields, of which ``p12`` says per round
whether the player went first (1) or second (2) (0: no game, 3: to be drawn, 4: unknown).
Rounds paired but not yet played have an opponent but no score.

What TSH cannot say (a flag fall decides a game whatever the score, a forfeit between two
named players, an annulled game) travels in a ``bordpunt`` field that TSH does not use:
one token per round (see :data:`TOKENS`). A file without it (written by TSH itself) is
read from the opponents, scores and ``p12`` alone. docs/tsh.md has the whole mapping.

>>> line = "Anke de Vries 0 2 0; 412 50; p12 1 0"
>>> (player,) = parse(line)
>>> player.name, player.opponents, player.scores, player.field("p12")
('Anke de Vries', (2, 0), (412, 50), ('1', '0'))
>>> write([player]).strip() == line
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from competition.core.standings import pair_winner
from rules.result import places

#: The extension field Bordpunt writes, and its tokens, one per round, from the line's
#: player's point of view. ``OPP`` is the opponent's player number.
EXTENSION = "bordpunt"
TOKENS = {
    "n": "a game played on the board, decided by the score",
    "fw": "won: the opponent's flag fell",
    "fl": "lost: own flag fell",
    "xw:OPP": "won: OPP forfeited",
    "xl:OPP": "lost by forfeit against OPP",
    "xb:OPP": "both forfeited",
    "a:OPP": "annulled (not properly played) against OPP",
    "b": "a bye",
    "p": "paired, no result yet",
    "-": "no game",
}
#: What a bye is worth in TSH's spread (NASPA and ABSP use +50; TSH reads it as a win).
BYE_SPREAD = 50
#: More rounds than any tournament plays: a file beyond it is not a real division.
MAX_ROUNDS = 100
MAX_PLAYERS = 1000
FORFEIT_SPREAD = 50

_NUMBER = re.compile(r"^-?[0-9]{1,6}$")
_TOKEN = re.compile(r"^(n|fw|fl|b|p|-|(?:xw|xl|xb|a):([0-9]{1,4}))$")


class TshError(ValueError):
    """A ``.t`` file or a tournament that cannot be read or written.

    ``code`` is stable (the app translates on it); ``line`` is the file's line (0 when the
    problem is not one line's); ``params`` fill the message.
    """

    MESSAGES = {
        "no_rating": "expected NAME RATING OPPONENTS; SCORES",
        "bad_number": "{value!r} is not a whole number",
        "no_players": "the file holds no players",
        "bad_opponent": "round {round}: there is no player {opponent}",
        "self": "round {round}: a player cannot play against themselves",
        "too_many_scores": "more scores ({scores}) than rounds ({rounds})",
        "not_mirrored": "round {round}: {opponent} does not have {name} as opponent",
        "half_played": "round {round}: a score on one side of the game only",
        "bad_token": "round {round}: cannot read {token!r} in the bordpunt field",
        "duplicate_name": "{name} is listed twice (also on line {other})",
        "pending_not_last": (
            "{name}: round {round} has no result but a later round has: TSH needs the "
            "results in round order"
        ),
        "no_score": "round {round}: a finished game without a score",
        "too_many_rounds": "{rounds} rounds: a tournament has at most {limit}",
        "too_many_players": "{players} players: a division has at most {limit}",
    }

    def __init__(self, code: str, line: int = 0, **params: Any) -> None:
        self.code = code
        self.line = line
        self.params = params
        message = self.MESSAGES[code].format(**params)
        super().__init__(f"line {line}: {message}" if line else message)


@dataclass(frozen=True)
class TshPlayer:
    """One line of a ``.t`` file."""

    name: str
    rating: int = 0
    opponents: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    #: The ``; key values...`` fields after the scores, in file order.
    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()
    line: int = 0

    def field(self, key: str) -> tuple[str, ...] | None:
        return next((values for name, values in self.fields if name == key), None)


def parse(text: str) -> list[TshPlayer]:
    """The players of a ``.t`` file; raises :class:`TshError` with the line number."""
    players = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, *rest = line.split(";")
        words = head.split()
        # The name runs up to the first word from which every word is a number.
        start = next(
            (i for i in range(1, len(words)) if all(_NUMBER.match(w) for w in words[i:])), None
        )
        if start is None:
            raise TshError("no_rating", number)
        name = " ".join(words[:start])
        rating, *opponents = (_int(w, number) for w in words[start:])
        scores = tuple(_int(w, number) for w in rest[0].split()) if rest else ()
        fields = []
        for part in rest[1:]:
            key, *values = part.split() or [""]
            if key:  # an empty field (";;", or ";" at the end) says nothing
                fields.append((key, tuple(values)))
        players.append(
            TshPlayer(name, max(rating, 0), tuple(opponents), scores, tuple(fields), number)
        )
    if not players:
        raise TshError("no_players")
    return players


def _int(word: str, line: int) -> int:
    if not _NUMBER.match(word):
        raise TshError("bad_number", line, value=word[:20])
    return int(word)


def write(players: Sequence[TshPlayer]) -> str:
    """The ``.t`` text: names in a column, as TSH writes them."""
    width = max((len(safe_name(p.name)) for p in players), default=0)
    lines = []
    for p in players:
        parts = [
            f"{safe_name(p.name):<{width}} {p.rating} {' '.join(map(str, p.opponents))}".rstrip(),
            " " + " ".join(map(str, p.scores)),
        ]
        parts += [f" {key} {' '.join(values)}".rstrip() for key, values in p.fields]
        lines.append(";".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def safe_name(name: str) -> str:
    """A name TSH reads back as a name: no semicolons, and no number as its last word
    (it would read as the rating): ``Jan 2`` is written ``Jan (2)``.

    >>> safe_name("Jan; Piet 2")
    'Jan, Piet (2)'
    """
    words = name.replace(";", ",").split()
    if len(words) > 1 and _NUMBER.match(words[-1]):
        words[-1] = f"({words[-1]})"
    return " ".join(words) or "?"


# --------------------------------------------------------------- tournaments


@dataclass(frozen=True)
class TournamentGame:
    """One game as Bordpunt stores it: ``a`` and ``b`` index ``Tournament.players``
    (``b`` is None for a bye); ``outcome`` and ``winner`` use the codes of
    ``games.models`` (``""`` for a game without a result)."""

    round: int
    a: int
    b: int | None
    outcome: str = ""
    winner: str = ""
    score_a: int | None = None
    score_b: int | None = None
    starter: str = ""  # "a", "b" or "" (by lot, not recorded)


@dataclass(frozen=True)
class Tournament:
    players: tuple[str, ...]
    rounds: int
    games: tuple[TournamentGame, ...] = ()
    #: Players whose TSH forfeit loss (against 0, negative score) had no opponent to
    #: record it against: (player index, round).
    unmatched_forfeits: tuple[tuple[int, int], ...] = field(default=())
    #: Each player's rating, in the order of ``players`` (empty: 0 for everyone).
    ratings: tuple[int, ...] = field(default=())


def from_tournament(tournament: Tournament) -> list[TshPlayer]:
    """The ``.t`` lines of a tournament (the ``bordpunt`` field included)."""
    n, rounds = len(tournament.players), tournament.rounds
    opponents = [[0] * rounds for _ in range(n)]
    scores: list[list[int | None]] = [[0] * rounds for _ in range(n)]
    firsts = [[0] * rounds for _ in range(n)]
    tokens = [["-"] * rounds for _ in range(n)]
    for game in tournament.games:
        r = game.round - 1
        for side, me, other in (("a", game.a, game.b), ("b", game.b, game.a)):
            if me is None:
                continue
            token, opponent, score = _side(game, side, other)
            tokens[me][r], opponents[me][r], scores[me][r] = token, opponent, score
            if other is not None and game.outcome in ("", "normal", "flag_fall"):
                firsts[me][r] = (1 if game.starter == side else 2) if game.starter else 3
    players = []
    for i, name in enumerate(tournament.players):
        own = scores[i]
        # Scores stop at the first round without a result; TSH has no later ones then.
        played = next((r for r in range(rounds) if own[r] is None), rounds)
        if any(s is not None for s in own[played:]):
            later = next(r for r in range(played, rounds) if own[r] is not None)
            if tokens[i][later] != "-":
                raise TshError("pending_not_last", name=name, round=played + 1)
        fields = (
            ("p12", tuple(map(str, firsts[i]))),
            (EXTENSION, tuple(tokens[i])),
        )
        players.append(
            TshPlayer(
                name,
                tournament.ratings[i] if i < len(tournament.ratings) else 0,
                tuple(opponents[i]),
                tuple(s for s in own[:played] if s is not None),
                fields if rounds else (),
            )
        )
    return players


def _side(game: TournamentGame, side: str, other: int | None) -> tuple[str, int, int | None]:
    """(token, TSH opponent, TSH score) of one side of a game."""
    opp = 0 if other is None else other + 1
    own = game.score_a if side == "a" else game.score_b
    won = game.winner == side
    if game.outcome == "bye":
        return "b", 0, BYE_SPREAD
    if game.outcome == "":
        return "p", opp, None
    if game.outcome == "normal":
        return "n", opp, own
    if game.outcome == "flag_fall":
        return ("fw" if won else "fl"), opp, own
    if game.outcome == "forfeit":
        if game.winner == "none":
            return f"xb:{opp}", 0, -FORFEIT_SPREAD
        return (f"xw:{opp}", 0, FORFEIT_SPREAD) if won else (f"xl:{opp}", 0, -FORFEIT_SPREAD)
    return f"a:{opp}", 0, 0  # annulled: TSH has no such game


def to_tournament(players: Sequence[TshPlayer]) -> Tournament:
    """The games of a ``.t`` file, checked: each game told the same way on both lines."""
    n = len(players)
    seen: dict[str, int] = {}
    for p in players:
        key = p.name.casefold()
        if key in seen:
            raise TshError("duplicate_name", p.line, name=p.name, other=seen[key])
        seen[key] = p.line
    if n > MAX_PLAYERS:
        raise TshError("too_many_players", players=n, limit=MAX_PLAYERS)
    rounds = max((len(p.opponents) for p in players), default=0)
    if rounds > MAX_ROUNDS:
        longest = max(players, key=lambda p: len(p.opponents))
        raise TshError("too_many_rounds", longest.line, rounds=rounds, limit=MAX_ROUNDS)
    for p in players:
        if len(p.scores) > len(p.opponents):
            raise TshError("too_many_scores", p.line, scores=len(p.scores), rounds=len(p.opponents))
        for r, opp in enumerate(p.opponents, 1):
            if not 0 <= opp <= n:
                raise TshError("bad_opponent", p.line, round=r, opponent=opp)
            if opp and players[opp - 1] is p:
                raise TshError("self", p.line, round=r)
    tokens = [_tokens(p, n) for p in players]
    games: list[TournamentGame] = []
    unmatched: list[tuple[int, int]] = []
    for i, p in enumerate(players):
        for r in range(rounds):
            token = tokens[i][r] if r < len(tokens[i]) else None  # a shorter line
            opp = p.opponents[r] - 1 if r < len(p.opponents) else -1
            score = p.scores[r] if r < len(p.scores) else None
            game = _game(players, tokens, i, r, token, opp, score, unmatched)
            if game is not None:
                games.append(game)
    return Tournament(tuple(p.name for p in players), rounds, tuple(games), tuple(unmatched))


def _tokens(p: TshPlayer, n: int) -> list[str | None]:
    """The ``bordpunt`` tokens of a line (None per round when the field is absent)."""
    values = p.field(EXTENSION)
    rounds = len(p.opponents)
    if values is None:
        return [None] * rounds
    out: list[str | None] = []
    for r in range(rounds):
        token = values[r] if r < len(values) else "-"
        match = _TOKEN.match(token)
        if not match or (match.group(2) and not 1 <= int(match.group(2)) <= n):
            raise TshError("bad_token", p.line, round=r + 1, token=token[:20])
        out.append(token)
    return out


def _game(
    players: Sequence[TshPlayer],
    tokens: list[list[str | None]],
    i: int,
    r: int,
    token: str | None,
    opp: int,
    score: int | None,
    unmatched: list[tuple[int, int]],
) -> TournamentGame | None:
    """The game of player ``i`` in round ``r`` (0-based), created once: from the line
    of the player with the lower number, or from a bye's own line."""
    p = players[i]
    if token is not None and ":" in token:  # forfeit or annulled against a named player
        kind, _, number = token.partition(":")
        other = int(number) - 1
        mirror = {"xw": "xl", "xl": "xw", "xb": "xb", "a": "a"}[kind]
        if tokens[other][r] != f"{mirror}:{i + 1}":
            raise TshError(
                "not_mirrored", p.line, round=r + 1, opponent=players[other].name, name=p.name
            )
        if other < i:
            return None
        if kind == "a":
            return TournamentGame(r + 1, i, other, "annulled", "none")
        winner = {"xw": "a", "xl": "b", "xb": "none"}[kind]
        return TournamentGame(r + 1, i, other, "forfeit", winner)
    if token == "b":
        return TournamentGame(r + 1, i, None, "bye", "a")
    if token == "-":
        return None
    if opp < 0:  # opponent 0: TSH's bye, forfeit or no game
        if token is not None:
            raise TshError("bad_token", p.line, round=r + 1, token=token)
        if score is not None and score > 0:
            return TournamentGame(r + 1, i, None, "bye", "a")
        if score is not None and score < 0:
            unmatched.append((i, r + 1))
        return None
    opponent = players[opp]
    if r >= len(opponent.opponents) or opponent.opponents[r] != i + 1:
        raise TshError("not_mirrored", p.line, round=r + 1, opponent=opponent.name, name=p.name)
    expected = {"fw": "fl", "fl": "fw"}.get(token or "", token)
    if tokens[opp][r] != expected:
        raise TshError("not_mirrored", p.line, round=r + 1, opponent=opponent.name, name=p.name)
    their = opponent.scores[r] if r < len(opponent.scores) else None
    if (score is None) != (their is None):
        raise TshError("half_played", p.line, round=r + 1)
    if opp < i:
        return None  # created from the other line
    starter = _starter(p, r)
    if score is None or their is None:
        if token not in (None, "p"):
            raise TshError("no_score", p.line, round=r + 1)
        return TournamentGame(r + 1, i, opp, starter=starter)
    if token in ("fw", "fl"):
        winner = "a" if token == "fw" else "b"
        return TournamentGame(r + 1, i, opp, "flag_fall", winner, score, their, starter)
    winner = pair_winner("normal", places("normal", scores=(score, their)))
    return TournamentGame(r + 1, i, opp, "normal", winner, score, their, starter)


def _starter(p: TshPlayer, r: int) -> str:
    p12 = p.field("p12") or ()
    value = p12[r] if r < len(p12) else ""
    return {"1": "a", "2": "b"}.get(value, "")
