"""Ratings at scale: a club of 300 players over 10 seasons of 30 evenings (about 45,000
games: 100 of the 300 present each evening, three rounds of 50 games).

Prints the median time of the pure computation, of a full recomputation from the database
(a cold cache: what a corrected result costs), and of the rating list page and a player's
rating history, cached and cold. Targets: the full recomputation under 2 s, the rating list
page under 150 ms, on a 2-core machine.

    .venv/bin/python benchmarks/ratings.py [--players 300] [--seasons 10] [--evenings 30]
"""

import argparse
import datetime
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


def build(player_count: int, seasons: int, evenings: int):
    """Players of hidden strengths; each season one competition, each evening three rounds
    on one date, a third of the club present; the stronger player wins more often."""
    from clubs.models import Club, Membership, Player
    from competition.models import Competition, Entrant, Round
    from games.models import Game, Outcome

    rng = random.Random(21)
    club = Club.objects.create(name="Ratingclub", slug="rating-bench")
    players = Player.objects.bulk_create(
        Player(name=f"Speler {number:03d}") for number in range(player_count)
    )
    strength = {player.pk: rng.gauss(0, 60) for player in players}
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in players)
    day = datetime.date(2016, 9, 1)
    for season in range(seasons):
        competition = Competition.objects.create(
            club=club, name=f"Seizoen {season + 1}", slug=f"seizoen-{season + 1}"
        )
        Entrant.objects.bulk_create(Entrant(competition=competition, player=p) for p in players)
        number = 0
        for _evening in range(evenings):
            present = rng.sample(players, player_count // 3)
            for _round in range(3):
                number += 1
                round_obj = Round.objects.create(
                    competition=competition, number=number, date=day, status=Round.Status.FINISHED
                )
                rng.shuffle(present)
                tables = []  # (game, [(player, score)])
                for table, index in enumerate(range(0, len(present) - 1, 2), 1):
                    pair = present[index : index + 2]
                    scores = [int(380 + strength[p.pk] + rng.gauss(0, 60)) for p in pair]
                    game = Game(round=round_obj, table=table, outcome=Outcome.NORMAL)
                    tables.append((game, list(zip(pair, scores, strict=True))))
                played_tables_create(round_obj, tables)
            day += datetime.timedelta(days=7)
    return club, players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--seasons", type=int, default=10)
    parser.add_argument("--evenings", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    django_on_a_fresh_database()
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from competition import ratings
    from competition.core import ratings as core
    from games.models import Game

    pages_in_this_process()
    start = time.perf_counter()
    club, players = build(args.players, args.seasons, args.evenings)
    games = Game.objects.count()
    print(
        f"built {args.players} players x {args.seasons} seasons x {args.evenings} evenings, "
        f"{games} games in {time.perf_counter() - start:.1f} s "
        f"({os.environ['DATABASE_URL'].split(':')[0]})"
    )
    periods = ratings.club_periods(club)
    client = Client()
    list_url = reverse("ratings", kwargs={"club": club.slug})
    history_url = reverse("rating_history", kwargs={"club": club.slug, "player_id": players[0].pk})

    def cold(function):
        def run():
            cache.clear()
            function()

        return run

    figures = {
        f"compute, pure ({len(periods)} periods)": lambda: core.compute(periods),
        "compute, pure, Elo": lambda: core.compute(periods, system=core.System.ELO),
        "full recomputation (DB, cold)": cold(lambda: ratings.club_ratings(club)),
        "rating list page, cached": lambda: client.get(list_url),
        "rating list page, cold": cold(lambda: client.get(list_url)),
        "player history page, cached": lambda: client.get(history_url),
    }
    assert client.get(list_url).status_code == 200
    assert client.get(history_url).status_code == 200
    for label, function in figures.items():
        function()  # warm up template loading
        print(f"{label:<36} median {median_ms(function, args.repeat):8.1f} ms")
    print("targets: full recomputation < 2000 ms, rating list page < 150 ms")


if __name__ == "__main__":
    main()
