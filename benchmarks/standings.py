"""Standings at scale: 300 entrants, 30 rounds (4,500 games).

Prints the median time to compute the standings (pure function, also over the same
entrants at tables of four, and with the ORM adapter), and to render the standings
page, the standings JSON and the crosstable.
Target: the standings page under 150 ms on a 2-core machine.

    .venv/bin/python benchmarks/standings.py [--entrants 300] [--rounds 30] [--repeat 7]
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fresh_database import (  # noqa: E402
    django_on_a_fresh_database,
    median_ms,
    pages_in_this_process,
    played_tables_create,
)


def build(entrant_count: int, round_count: int):
    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant, Round
    from games.models import Game, Outcome

    rng = random.Random(300)
    club = Club.objects.create(name="Benchmarkclub", slug="bench")
    competition = Competition.objects.create(
        club=club,
        name="Benchmark",
        slug="benchmark",
        tiebreaks=["spread", "wins", "opponents_match_points", "sonneborn_berger"],
    )
    players = Player.objects.bulk_create(
        Player(name=f"Speler {number:03d}") for number in range(entrant_count)
    )
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in players)
    Entrant.objects.bulk_create(Entrant(competition=competition, player=p) for p in players)
    for number in range(1, round_count + 1):
        round_obj = Round.objects.create(
            competition=competition, number=number, status=Round.Status.FINISHED
        )
        order = players[:]
        rng.shuffle(order)
        tables = []  # (game, [(player, score)])
        for table, index in enumerate(range(0, len(order) - 1, 2), 1):
            scores = (rng.randint(150, 450), rng.randint(150, 450))
            game = Game(round=round_obj, table=table, outcome=Outcome.NORMAL)
            tables.append((game, list(zip(order[index : index + 2], scores, strict=True))))
        played_tables_create(round_obj, tables)
    return competition


def tables_of_four(entrants, round_count: int):
    """The same entrants at tables of four (the rest at a table of 2 or 3), random scores."""
    from competition.core import standings

    rng = random.Random(4)
    records = []
    for number in range(1, round_count + 1):
        order = [entrant.player_id for entrant in entrants]
        rng.shuffle(order)
        for start in range(0, len(order) - 1, 4):
            seats = tuple(
                standings.SeatRecord(player, rng.randint(100, 350))
                for player in order[start : start + 4]
            )
            records.append(standings.TableRecord(number, seats, "normal"))
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    django_on_a_fresh_database()
    from django.test import Client
    from django.urls import reverse

    from competition import selectors
    from competition.core import standings

    pages_in_this_process()
    start = time.perf_counter()
    competition = build(args.entrants, args.rounds)
    print(
        f"built {args.entrants} entrants x {args.rounds} rounds "
        f"in {time.perf_counter() - start:.1f} s ({os.environ['DATABASE_URL'].split(':')[0]})"
    )
    entrants = selectors.entrant_records(competition)
    games = selectors.game_records(competition)
    settings = selectors.standings_settings(competition)
    client = Client()
    kwargs = {"club": "bench", "competition": "benchmark"}
    tables = tables_of_four(entrants, args.rounds)
    figures = {
        "standings.compute (pure)": lambda: standings.compute(entrants, games, settings),
        "same, tables of 4 (pure)": lambda: standings.compute(entrants, tables, settings),
        "standings with ORM reads": lambda: selectors.standings_get(competition),
        "standings page (GET)": lambda: client.get(reverse("standings", kwargs=kwargs)),
        "standings JSON (GET)": lambda: client.get(reverse("standings_json", kwargs=kwargs)),
        "crosstable page (GET)": lambda: client.get(reverse("crosstable", kwargs=kwargs)),
    }
    assert client.get(reverse("standings", kwargs=kwargs)).status_code == 200
    for label, function in figures.items():
        function()  # warm up caches and template loading
        print(f"{label:<28} median {median_ms(function, args.repeat):8.1f} ms")


if __name__ == "__main__":
    main()
