"""Every game's two sides become its seats 0 and 1 (docs/tables.md, "Migrations")."""

from django.db import migrations

POSITION = {"a": 0, "b": 1}
SIDE_FIELDS = ["player_a", "player_b", "score_a", "score_b", "winner", "starter", "claimed_by"]
SIDE_FIELDS += ["counter_result"]


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


def counter_to_sides(counter: dict) -> dict:
    """`counter_to_seats` backwards, for a pair."""
    if not counter:
        return {}
    outcome, scores = counter.get("outcome", ""), counter.get("scores") or [None, None]
    losers = counter.get("flag_fell") or counter.get("forfeited") or []
    if (outcome == "forfeit" and len(losers) == 2) or outcome == "annulled":
        winner = "none"
    elif losers:
        winner = "ab"[1 - losers[0]]
    elif outcome == "normal":
        winner = "a" if scores[0] > scores[1] else "b" if scores[1] > scores[0] else "draw"
    else:
        winner = ""
    return {"outcome": outcome, "winner": winner, "score_a": scores[0], "score_b": scores[1]}


def backwards(apps, schema_editor):
    """Seats 0 and 1 back to sides a and b (a game of more than two seats cannot go back)."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    side = {position: letter for letter, position in POSITION.items()}
    seats_of: dict = {}
    for seat in Seat.objects.order_by("position"):
        seats_of.setdefault(seat.game_id, []).append(seat)
    for seat in (seat for seats in seats_of.values() for seat in seats):
        seat.side = side[seat.position]
    Seat.objects.bulk_update(
        [seat for seats in seats_of.values() for seat in seats], ["side"], batch_size=500
    )
    games = list(Game.objects.all())
    for game in games:
        seats = seats_of.get(game.pk, [])
        if len(seats) > 2:
            raise ValueError(f"game {game.pk} has {len(seats)} seats: one against one only")
        places = [seat.place for seat in seats]
        first, second = [*seats, None][:2]
        game.player_a_id = first.player_id
        game.player_b_id = second.player_id if second else None
        game.score_a, game.score_b = first.score, second.score if second else None
        if game.outcome in ("", "annulled"):
            game.winner = "" if game.outcome == "" else "none"
        elif places == [1, 1]:
            game.winner = "draw"
        elif 1 in places:
            game.winner = side[places.index(1)]
        else:
            game.winner = "none"
        game.starter = side.get(game.starter_seat, "")
        game.claimed_by = side.get(game.claimed_seat, "")
        game.counter_result = counter_to_sides(game.counter_result or {})
    Game.objects.bulk_update(
        games,
        SIDE_FIELDS,
        batch_size=500,
    )
    for position, letter in side.items():
        Move.objects.filter(seat=position).update(side=letter)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_seats_hold_the_result"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
