"""The turn's clock kept by the server: each turn its own thinking time (copied from the
competition at the draw) and the time the spelleider added; a late slip accepted."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def turns_take_their_competition_s_time(apps, schema_editor):
    """A turn drawn before this migration gets the thinking time its competition has now
    (the only one the app knew then)."""
    Turn = apps.get_model("duplicate", "Turn")
    DuplicateCompetition = apps.get_model("duplicate", "DuplicateCompetition")
    Turn.objects.update(
        seconds=Subquery(
            DuplicateCompetition.objects.filter(evenings__turns=OuterRef("pk")).values(
                "think_seconds"
            )[:1]
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("duplicate", "0006_paired_rows_of_duplicate_competitions_removed"),
    ]

    operations = [
        migrations.AddField(
            model_name="turn",
            name="seconds",
            field=models.PositiveSmallIntegerField(
                default=180, verbose_name="thinking time (seconds)"
            ),
        ),
        migrations.AddField(
            model_name="turn",
            name="added_seconds",
            field=models.PositiveIntegerField(default=0, verbose_name="time added (seconds)"),
        ),
        migrations.AddField(
            model_name="slip",
            name="late_accepted",
            field=models.BooleanField(default=False, verbose_name="late slip accepted"),
        ),
        migrations.RunPython(turns_take_their_competition_s_time, migrations.RunPython.noop),
    ]
