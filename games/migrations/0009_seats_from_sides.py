"""Every game's two sides become its seats 0 and 1 (docs/tables.md, "Migrations")."""

from django.db import migrations

POSITION = {"a": 0, "b": 1}


def _places(winner: str, outcome: str) -> dict[str, int | None]:
    if outcome in ("", "annulled"):
        return {"a": None, "b": None}
    if winner == "draw":
        return {"a": 1, "b": 1}
    if winner == "none":  # a forfeit of both
        return {"a": None, "b": None}
    loser = None if outcome == "forfeit" else 2
    return {"a": 1, "b": loser} if winner == "a" else {"a": loser, "b": 1}


def counter_to_seats(counter: dict, claimed_by: str) -> dict:
    """An old `counter_result` (outcome, winner, score_a, score_b) in the seats' form
    (`games.services.TableResult.snapshot` and the seat that entered it: the player who
    did not make the first entry, `claimed_by`)."""
    if not counter:
        return {}
    outcome, winner = counter.get("outcome", ""), counter.get("winner", "")
    loser = {"a": "b", "b": "a"}.get(winner)
    claimed = POSITION.get(claimed_by)
    return {
        "outcome": outcome,
        "scores": [counter.get("score_a"), counter.get("score_b")],
        "flag_fell": [POSITION[side] for side in "ab" if outcome == "flag_fall" and loser == side],
        "forfeited": [
            POSITION[side]
            for side in "ab"
            if outcome == "forfeit" and (winner == "none" or loser == side)
        ],
        "by": None if claimed is None else 1 - claimed,
    }


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    games = {game.pk: game for game in Game.objects.all()}
    seats = list(Seat.objects.all())
    for seat in seats:
        game = games[seat.game_id]
        places = _places(game.winner, game.outcome)
        loser = {"a": "b", "b": "a"}.get(game.winner)
        seat.position = POSITION[seat.side]
        seat.score = game.score_a if seat.side == "a" else game.score_b
        seat.place = places[seat.side]
        seat.flag_fell = game.outcome == "flag_fall" and loser == seat.side
        seat.forfeited = game.outcome == "forfeit" and (game.winner == "none" or loser == seat.side)
        seat.confirmed = game.outcome not in ("", "bye") and (
            game.confirmation == "confirmed" or game.claimed_by == seat.side
        )
    Seat.objects.bulk_update(
        seats,
        ["position", "score", "place", "flag_fell", "forfeited", "confirmed"],
        batch_size=500,
    )
    for game in games.values():
        game.starter_seat = POSITION.get(game.starter)
        game.claimed_seat = POSITION.get(game.claimed_by)
        game.counter_result = counter_to_seats(game.counter_result, game.claimed_by)
    Game.objects.bulk_update(
        games.values(), ["starter_seat", "claimed_seat", "counter_result"], batch_size=500
    )
    for side, position in POSITION.items():
        Move.objects.filter(side=side).update(seat=position)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_seats_hold_the_result"),
    ]

    operations = [
        migrations.RunPython(forwards, elidable=False),
    ]
