"""Locking games for a write: the one way every service takes a game's row.

A write to a game (a move, a result, a confirmation) locks its row, then checks that the
game is still as the screen showed it (`Game.version`): two people at one game never
overwrite each other. A press of the game's clock changes the clock's row alone, so the
clock's services lock that row too, after its game's (`clock_lock`). The lock order and the
kind of lock are `clubs.locks`'s: games come after the club and the round, in id order, a
game's clock after its game, FOR NO KEY UPDATE.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from django.db.models import prefetch_related_objects
from django.db.models.fields.mixins import FieldCacheMixin

from games.models import Game, GameClock, seats_with_players


def game_lock(
    game: Game,
    *,
    expected_version: int | None,
    stale: Callable[[], Exception],
    related: Sequence[str] = (),
) -> Game:
    """The game's row, locked until the transaction ends, with `related` loaded; raises
    `stale()` when the screen's `expected_version` is no longer the game's (None: no
    screen to compare with). A row its caller holds already (`row_held`) is not read again."""
    if getattr(game, "_row_held", False):
        locked = game
    else:
        loaded = [path for path in related if _loaded(game, path)]
        # Lock the game row only: PostgreSQL cannot lock the nullable side of an outer join.
        locked = (
            Game.objects.select_for_update(of=("self",), no_key=True)
            .select_related(*[path for path in related if path not in loaded])
            .get(pk=game.pk)
        )
        for path in loaded:
            _reuse(locked, game, path.split("__")[0])
        prefetch_related_objects([locked], seats_with_players())
    if expected_version is not None and locked.version != expected_version:
        raise stale()
    return locked


def _loaded(game: Game, path: str) -> bool:
    """Whether the caller's copy of the game has `path` ("round__competition") loaded."""
    instance = game
    for name in path.split("__"):
        field = type(instance)._meta.get_field(name)
        # A reverse relation (the game's clock) is read with the lock: it has no key on
        # the game's row to tell whether the caller's copy is still the one.
        if (
            not isinstance(field, FieldCacheMixin)
            or not field.concrete
            or not field.is_cached(instance)
        ):
            return False
        instance = getattr(instance, name)
        if instance is None:
            return True
    return True


def _reuse(locked: Game, game: Game, name: str) -> None:
    """Give the locked row the related object its caller loaded a moment ago (a player,
    the round with its competition and club), when the row still points to it: the lock
    reads one row, not five joined tables. What can change under a game (who plays it,
    its round) is its own row's foreign keys, which the lock reads fresh."""
    field = Game._meta.get_field(name)
    if getattr(locked, field.attname) == getattr(game, field.attname):  # type: ignore[union-attr]
        setattr(locked, name, getattr(game, name))


def clock_lock(game: Game) -> GameClock | None:
    """The clock of `game` (whose row the caller holds), locked until the transaction ends
    and read as it is now, not as a read joined to the game's lock saw it before that lock
    was granted: two presses at once append one after the other, and a second start finds
    the first one's clock. None when the game has no clock; either way the game's clock from
    now on (`games.timing.clock_of`)."""
    clock = GameClock.objects.select_for_update(no_key=True).filter(game=game).first()
    Game._meta.get_field("clock").set_cached_value(game, clock)
    return clock


def games_lock(game_ids: Iterable[int], *, related: Sequence[str] = ()) -> dict[int, Game]:
    """Many games' rows, locked in id order (so two writers of overlapping rounds cannot
    wait for each other in a circle), by id, with `related` loaded; ids of games that are
    gone are left out."""
    games = (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related(*related)
        .order_by("pk")
        .in_bulk(list(game_ids))
    )
    prefetch_related_objects(list(games.values()), seats_with_players())
    return games


def games_locked(queryset):
    """`queryset` of games, locked in id order when it is read: a round's games before a
    change of the pairing, so that a move entered at that moment waits or is seen."""
    return (
        queryset.select_for_update(of=("self",), no_key=True)
        .order_by("pk")
        .prefetch_related(seats_with_players())
    )


@contextmanager
def row_held(game: Game) -> Iterator[Game]:
    """For a write of the moves on a row its caller has just locked, in the same
    transaction (`games.confirmation.game_moves_write`): `game_lock` takes the row as it
    is instead of reading and locking it a second time. A board save is a few queries less."""
    held = getattr(game, "_row_held", False)
    game._row_held = True  # type: ignore[attr-defined]
    try:
        yield game
    finally:
        game._row_held = held  # type: ignore[attr-defined]
