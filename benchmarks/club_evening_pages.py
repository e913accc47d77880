"""The pages of a club evening on a big club: 300 entrants, 30 rounds (4,500 games).

Prints the time of the player's history (the rank after every round is a standings
computation per round, kept until the competition changes), the scoresheets of a round
(150 sheets, each with a QR code, kept per URL), the club-room screen's panels (first
request, and again), and a repeat poll of the panels (304).

    .venv/bin/python benchmarks/club_evening_pages.py [--entrants 300] [--rounds 30]
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fresh_database import django_on_a_fresh_database, pages_in_this_process  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3, help="requests per page, at least 2")
    args = parser.parse_args()

    django_on_a_fresh_database()

    from django.test import Client
    from django.urls import reverse

    from benchmarks.standings import build
    from competition.models import Entrant

    pages_in_this_process()
    competition = build(args.entrants, args.rounds)
    player_id = Entrant.objects.filter(competition=competition).values_list("player_id")[0][0]
    kwargs = competition.url_kwargs
    pages = {
        "player history": reverse(
            "player_history", kwargs={"club": kwargs["club"], "player_id": player_id}
        ),
        "scoresheets": reverse("round_scoresheets", kwargs={**kwargs, "number": args.rounds}),
        "screen panels": reverse("screen_panels", kwargs=kwargs),
    }
    client = Client(HTTP_HOST="127.0.0.1")
    database_kind = os.environ["DATABASE_URL"].split(":")[0]
    print(f"{args.entrants} entrants x {args.rounds} rounds ({database_kind})")
    print(f"{'page':16s} {'first':>8s} {'again':>8s}  size")
    for name, url in pages.items():
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, (name, response.status_code)
        print(
            f"{name:16s} {times[0] * 1000:5.0f} ms {min(times[1:]) * 1000:5.0f} ms"
            f"  {len(response.content) / 1024:.0f} KiB"
        )
    etag = client.get(pages["screen panels"])["ETag"]
    start = time.perf_counter()
    for _ in range(100):
        assert client.get(pages["screen panels"], HTTP_IF_NONE_MATCH=etag).status_code == 304
    print(
        f"{'poll, unchanged':16s} {(time.perf_counter() - start) * 10:8.1f} ms  (304, mean of 100)"
    )


if __name__ == "__main__":
    main()
