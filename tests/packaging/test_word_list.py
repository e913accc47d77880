"""A club's own word list on the installed wheel, outside the checkout: `bordpunt lexicon`
builds it into the home, where the site finds it (the settings take the folder from the
home), and a club that chose it plays with it; a list gone missing is said at the start
(docs/installed.md, "A club's own word list")."""

import sqlite3
from pathlib import Path

from tests.packaging.installed import python, running
from tests.word_lists import club_list

# A script for the installed Python: the club's competition gets a game, which plays SNAKE
# (a word of the club's list only) without a warning.
GAME = """
import django; django.setup()
from clubs.models import Club, Player
from clubs.word_lists import available
from competition.models import Competition, Entrant
from competition.services.rounds import round_create, round_set_pairings
from games.moves import move_add
from games.services import PairingSpec

assert available() == ["clublijst"], available()
competition = Competition.objects.get()
players = [Player.objects.create(name=name) for name in ("Anna", "Bert")]
for player in players:
    Entrant.objects.create(competition=competition, player=player)
(game,) = round_set_pairings(
    round=round_create(competition=competition),
    pairings=[PairingSpec(players=tuple(p.pk for p in players), table=1)],
)
assert game.rules["word_list"] == "clublijst", game.rules
row = move_add(game=game, notation="8H SNAKE", by=None)
assert row.warnings == [], row.warnings
"""


def test_the_installed_command_builds_a_list_the_clubs_games_play(
    installed, outside, club_home, tmp_path
):
    source = tmp_path / "Clublijst.txt"
    source.write_text(club_list("kaas", "snake"), encoding="utf-8")
    done = installed.run(["lexicon", str(source)], home=club_home, cwd=outside)
    assert done.returncode == 0, done.stderr
    assert "Woordenlijst clublijst gemaakt: 1002 woorden" in done.stdout
    assert {path.name for path in (club_home / "lexicons").iterdir()} == {
        "clublijst.marisa",
        "clublijst.dawg",
    }
    choose(club_home, "clublijst")
    python(installed, club_home, outside, "-c", GAME)


def choose(home: Path, name: str) -> None:
    """The club's choice, as its settings page saves it."""
    with sqlite3.connect(home / "db.sqlite3") as db:
        db.execute("UPDATE clubs_club SET word_list = ?", (name,))


def test_a_missing_list_is_said_when_bordpunt_starts(installed, outside, club_home):
    choose(club_home, "weg")
    with running(installed, club_home, outside) as server:
        said = "".join(server.lines)
    assert "De woordenlijst weg van De Goudse Letters ontbreekt" in said, said
    assert server.process.returncode == 0
