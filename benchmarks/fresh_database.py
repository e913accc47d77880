"""Django as production runs it (no debug query log, compiled templates cached), on a fresh
SQLite file with the schema migrated: the starting point of the database benchmarks; and
how they time what they measure."""

import os
import statistics
import tempfile
import time
from pathlib import Path


def median_ms(function, repeat: int) -> float:
    """The median of `repeat` runs of `function()`, in ms."""
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def django_on_a_fresh_database() -> Path:
    """Set Django up on a new SQLite file (unless DATABASE_URL names another database) and
    migrate it; the folder the file is in."""
    folder = Path(tempfile.mkdtemp())
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder / 'bench.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DJANGO_DEBUG", "false")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DJANGO_STATIC_ROOT", str(folder / "static"))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return folder


def pages_in_this_process() -> None:
    """Let Django's test client fetch pages here as the production server would serve them:
    the test environment (an in-memory mail box, hosts allowed) and the static files'
    manifest the templates' `{% static %}` reads."""
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("collectstatic", verbosity=0, interactive=False)


def played_tables_create(round_obj, tables) -> None:
    """Write a round's games played on the board: `tables` is a list of (unsaved Game,
    [(player, score)] in table order); each seat gets its place from the rules."""
    from games.models import Game, Outcome, Seat
    from rules.result import places

    Game.objects.bulk_create([game for game, _seated in tables])
    Seat.objects.bulk_create(
        Seat(
            game=game,
            round=round_obj,
            player=player,
            position=position,
            score=score,
            place=places(Outcome.NORMAL, scores=[s for _p, s in seated])[position],
            confirmed=True,
        )
        for game, seated in tables
        for position, (player, score) in enumerate(seated)
    )
