"""The duplicate rules of a competition (a preset and what the club plays differently),
each evening's copy of its slip rules, and what the referee finds on a slip; merges the
turn clock and the slip notation. The thinking time per turn, a field of its own until
now, becomes the rules' `turn_seconds`: a competition and its evenings keep theirs."""

from django.db import migrations, models

#: The NTSV preset's time per turn (`rules.referee.SlipRules.turn_seconds`): a time equal to
#: it needs no value of its own, as an empty rule set is the NTSV preset.
DEFAULT_SECONDS = 180


def thinking_time_into_the_rules(apps, schema_editor):
    """Each competition's `think_seconds` as its rules' `turn_seconds`; each evening made
    so far judges its slips as the app did (the NTSV preset) with that time."""
    DuplicateCompetition = apps.get_model("duplicate", "DuplicateCompetition")
    Evening = apps.get_model("duplicate", "Evening")
    for competition in DuplicateCompetition.objects.all():
        seconds = competition.think_seconds
        if seconds != DEFAULT_SECONDS:
            competition.settings = {"preset": "ntsv", "slips": {"turn_seconds": seconds}}
            competition.save(update_fields=["settings"])
            Evening.objects.filter(competition=competition).update(
                slip_rules={"turn_seconds": seconds}
            )


def rules_back_into_the_thinking_time(apps, schema_editor):
    DuplicateCompetition = apps.get_model("duplicate", "DuplicateCompetition")
    for competition in DuplicateCompetition.objects.all():
        seconds = (competition.settings or {}).get("slips", {}).get("turn_seconds")
        competition.think_seconds = seconds or DEFAULT_SECONDS
        competition.save(update_fields=["think_seconds"])


class Migration(migrations.Migration):
    dependencies = [
        ("duplicate", "0007_slip_notation"),
        ("duplicate", "0007_turn_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="duplicatecompetition",
            name="settings",
            field=models.JSONField(blank=True, default=dict, verbose_name="duplicate rules"),
        ),
        migrations.AddField(
            model_name="evening",
            name="slip_rules",
            field=models.JSONField(blank=True, default=dict, verbose_name="slip rules"),
        ),
        migrations.AddField(
            model_name="slip",
            name="faults",
            field=models.JSONField(blank=True, default=list, verbose_name="faults"),
        ),
        migrations.AddField(
            model_name="slip",
            name="warning",
            field=models.CharField(blank=True, max_length=40, verbose_name="warning"),
        ),
        migrations.AddField(
            model_name="slip",
            name="penalty",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="penalty"),
        ),
        migrations.RunPython(thinking_time_into_the_rules, rules_back_into_the_thinking_time),
        migrations.RemoveField(model_name="duplicatecompetition", name="think_seconds"),
    ]
