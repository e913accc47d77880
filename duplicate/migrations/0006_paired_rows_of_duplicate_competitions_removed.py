"""The rows a duplicate competition had as a paired competition go (issue 39): what they
held is in its `DuplicateCompetition` and participants now (0004), and 0004 refused any
game with a result or moves. Groups and absences go with the competition and rounds."""

from django.db import migrations


def remove_paired_rows(apps, schema_editor):
    Competition = apps.get_model("competition", "Competition")
    Entrant = apps.get_model("competition", "Entrant")
    Round = apps.get_model("competition", "Round")
    Game = apps.get_model("games", "Game")

    old = Competition.objects.filter(kind="duplicate")
    Entrant.objects.filter(competition__in=old).delete()
    Game.objects.filter(round__competition__in=old).delete()
    Round.objects.filter(competition__in=old).delete()
    old.delete()


class Migration(migrations.Migration):
    dependencies = [("duplicate", "0005_evening_of_a_duplicate_competition")]

    operations = [migrations.RunPython(remove_paired_rows, migrations.RunPython.noop, elidable=False)]
