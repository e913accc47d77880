"""Every competition of the kind duplicate becomes a `DuplicateCompetition` (issue 39).

It keeps the competition's id, so its evenings point to it unchanged (0005 moves their
foreign key); its entrants become participants (withdrawn from round N: from evening N);
its history is keyed by `HistoryEntry.duplicate_id` instead of `competition_id`. The
competition's own row, entrants and any rounds without results go in 0006. A duplicate
competition paired into games with a result or moves is refused: nothing is lost.
"""

from django.core.management.color import no_style
from django.db import migrations
from django.db.models import F, Q

#: A game's outcome before any result: a pairing only (a bye is not a result either).
NO_RESULT = ("pending", "bye")


def carry_over(apps, schema_editor):
    Competition = apps.get_model("competition", "Competition")
    Entrant = apps.get_model("competition", "Entrant")
    Game = apps.get_model("games", "Game")
    HistoryEntry = apps.get_model("clubs", "HistoryEntry")
    DuplicateCompetition = apps.get_model("duplicate", "DuplicateCompetition")
    Participant = apps.get_model("duplicate", "Participant")

    old = list(Competition.objects.filter(kind="duplicate").order_by("pk"))
    if not old:
        return
    ids = [competition.pk for competition in old]
    played = Game.objects.filter(round__competition_id__in=ids).filter(
        ~Q(outcome__in=NO_RESULT) | Q(moves__isnull=False)
    )
    if played.exists():
        names = ", ".join(
            sorted({f"{g.round.competition.club.slug}/{g.round.competition.slug}" for g in played})
        )
        raise RuntimeError(
            f"Duplicate competitions with paired games that have a result or moves: {names}. "
            "Remove those results (or change the competition's kind) before migrating."
        )
    for competition in old:
        made = DuplicateCompetition.objects.create(
            pk=competition.pk,
            club_id=competition.club_id,
            name=competition.name,
            slug=competition.slug,
            # Only a master game's rules (0010 named the rules the evenings played).
            rules=competition.rules if competition.rules in ("standard", "sbnl") else "standard",
            start_date=competition.start_date,
            think_seconds=competition.think_seconds or 180,
            best_evenings=competition.best_evenings,
            archived_at=competition.archived_at,
        )
        # auto_now_add and auto_now set these on create: the old ones, by an update.
        DuplicateCompetition.objects.filter(pk=made.pk).update(
            created_at=competition.created_at, changed_at=competition.changed_at
        )
        Participant.objects.bulk_create(
            Participant(
                competition_id=made.pk,
                player_id=entrant.player_id,
                withdrawn_from_evening=entrant.withdrawn_from_round,
            )
            for entrant in Entrant.objects.filter(competition_id=competition.pk).order_by("pk")
        )
    history = HistoryEntry.objects.filter(competition_id__in=ids)
    history.filter(object_type="competition").update(object_type="duplicate")
    history.update(duplicate_id=F("competition_id"), competition_id=None)
    # The ids were given: the table's own counter goes past them (PostgreSQL).
    with schema_editor.connection.cursor() as cursor:
        for sql in schema_editor.connection.ops.sequence_reset_sql(
            no_style(), [DuplicateCompetition]
        ):
            cursor.execute(sql)


def refuse_back(apps, schema_editor):
    """Backwards only an empty database: the rows are not carried back."""
    if apps.get_model("duplicate", "DuplicateCompetition").objects.exists():
        raise RuntimeError("Duplicate competitions are not carried back to competitions.")


class Migration(migrations.Migration):
    dependencies = [
        ("duplicate", "0003_duplicate_competition"),
        ("competition", "0011_round_pairing_explanation"),
        ("games", "0010_sides_become_seats"),
        ("clubs", "0007_history_duplicate_id"),
    ]

    operations = [migrations.RunPython(carry_over, refuse_back, elidable=False)]
