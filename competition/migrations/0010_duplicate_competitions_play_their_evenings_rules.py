"""A duplicate competition's rules are now the rules its evenings play.

Before, every evening played the standard rules whatever its competition said (the
model's default, Gouds 8, on most), so the competition's pages named rules nobody played.
Each such competition now says what its evenings played: its first evening's rules, or
the standard rules when it has none yet.
"""

from django.db import migrations

DUPLICATE_RULES = ("standard", "sbnl")


def name_the_rules_played(apps, schema_editor):
    Competition = apps.get_model("competition", "Competition")
    Evening = apps.get_model("duplicate", "Evening")
    wrong = Competition.objects.filter(kind="duplicate").exclude(rules__in=DUPLICATE_RULES)
    for competition in wrong:
        first = Evening.objects.filter(competition=competition).order_by("number").first()
        played = first.rules if first is not None else "standard"
        Competition.objects.filter(pk=competition.pk).update(
            rules=played if played in DUPLICATE_RULES else "standard", custom_rules={}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0009_table_size_and_scoring"),
        ("duplicate", "0002_turn_drawn_at"),
    ]

    operations = [migrations.RunPython(name_the_rules_played, migrations.RunPython.noop)]
