"""Row locks for writes: the one lock order of the whole app, and the club's lock.

Every write that must look before it writes takes its locks in this order, and only this
order, on PostgreSQL:

1. the club (`club_lock`): check-then-create writes (the next round number, a new player,
   an entrant, a group, a CSV import);
2. the round (`competition.services.rounds.round_lock`, which takes the club first);
3. the games, in id order (`games.locks.game_lock`, `games.locks.games_lock`); a writer
   of several games (the CSV import) locks all of them before it touches a round or the
   competition for any one of them;
   a game's clock (`games.locks.clock_lock`) comes right after its game;
   A duplicate turn (`row_lock`, in duplicate/services/) sits here too: a redo of the
   turn holds the club, then the turn; a slip's hand-in holds the turn alone, its correction
   (which publishes a ranked game again in its transaction) the club, then the turn;
4. the competition's `changed_at` (`competition.versioning`), always last, by an UPDATE.

The locks a database takes by itself count too. Inserting a row with a foreign key makes
PostgreSQL take a FOR KEY SHARE lock on the row it points to, until commit: every history
entry points to its club, every move to its game, every seat to its game. A plain
`SELECT ... FOR UPDATE` conflicts with that share lock, so a secretary holding the club
row FOR UPDATE and a board save inserting a history entry of that club (while holding the
competition's row) used to wait for each other in a circle. Every lock here is therefore
`FOR NO KEY UPDATE` (`select_for_update(no_key=True)`): it excludes every other writer of
the same row, exactly as before, but not the foreign-key checks of inserts that point to
it. An UPDATE that changes no key column takes the same lock by itself.

On SQLite every write transaction holds the database's write lock from `BEGIN`
(`transaction_mode` IMMEDIATE in config/settings.py): writers run one at a time and these
calls are plain reads.

`tests/test_lock_order.py` holds every `select_for_update` in the code to these modules.
"""

from __future__ import annotations

from django.db import connection

from clubs.models import Club


def club_lock(club_id: int) -> None:
    """Hold the club's row lock until the transaction ends.

    Writes that look before they create then run one at a time per club, so a second click
    finds what the first one made instead of making it again.
    """
    list(
        Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk", flat=True)
    )


def row_lock(queryset):
    """`queryset` locked for a write (only its own table's rows, FOR NO KEY UPDATE): for the
    rows that are not a club, a round or a game (a player's invitation, a competition's
    settings), each taken alone, after the locks above when there are any."""
    return queryset.select_for_update(of=("self",), no_key=True)


#: The key of `club_names_lock` among PostgreSQL's advisory locks ("BPCN", Bordpunt's club
#: names): no other lock of the app is an advisory one.
CLUB_NAMES_LOCK_KEY = 0x4250434E


def club_names_lock() -> None:
    """Hold the lock on every club's name until the transaction ends, before any club's
    lock (a sign-up's confirmation takes it right after its own row). A new club's name is
    checked against every other club's (a name that reads as another's is refused,
    clubs.models.club_name_taken) and no row holds them all. Two sign-ups of one name
    confirmed at once then run one after the other, and the second sees the first one's
    club. On SQLite the write lock from `BEGIN` does this already."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CLUB_NAMES_LOCK_KEY])
