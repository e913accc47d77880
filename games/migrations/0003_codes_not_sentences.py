"""Moves keep their warnings and problem, and result changes their automatic reason, as
codes with parameters (rendered in the reader's language), no longer as sentences.

Existing sentences are turned into codes where they are recognised (in Dutch or English);
any other text is kept as ``{"code": "text", "params": {"text": ...}}`` and shown as is.
"""

import re

from django.db import migrations, models

WARNINGS = [
    (re.compile(r"^(?P<word>\S+) staat niet in de woordenlijst\.?$"), "not_in_lexicon"),
    (re.compile(r"^(?P<word>\S+) is not in the word list\.?$"), "not_in_lexicon"),
]
PROBLEMS = [
    (re.compile(r"^Niet geteld tot zet (?P<number>\d+) is verbeterd\.$"), "not_scored_until"),
    (re.compile(r"^Not scored until move (?P<number>\d+) is corrected\.$"), "not_scored_until"),
]
REASONS = {
    "uit de zetten": "from_moves",
    "from the moves": "from_moves",
    "geïmporteerd uit CSV": "csv_import",
    "imported from CSV": "csv_import",
    "geïmporteerd uit TSH": "tsh_import",
    "imported from TSH": "tsh_import",
}
BATCH = 500


def _coded(text, patterns):
    if isinstance(text, dict):
        return text
    for pattern, code in patterns:
        match = pattern.match(str(text))
        if match:
            params = {
                key: int(value) if value.isdigit() else value
                for key, value in match.groupdict().items()
            }
            return {"code": code, "params": params}
    return {"code": "text", "params": {"text": str(text)}}


def to_codes(apps, schema_editor):
    Move = apps.get_model("games", "Move")
    ResultChange = apps.get_model("games", "ResultChange")
    changed = []
    for move in Move.objects.only("pk", "warnings", "problem").iterator(chunk_size=BATCH):
        if not move.warnings and not move.problem:
            continue
        move.warnings = [_coded(warning, WARNINGS) for warning in move.warnings or []]
        if move.problem:
            problem = _coded(move.problem, PROBLEMS)
            move.problem_code, move.problem_params = problem["code"], problem["params"]
        changed.append(move)
    Move.objects.bulk_update(
        changed, ["warnings", "problem_code", "problem_params"], batch_size=BATCH
    )
    for text, code in REASONS.items():
        ResultChange.objects.filter(reason=text, reason_code="").update(reason_code=code, reason="")


def to_sentences(apps, schema_editor):
    """Back to Dutch sentences (the default language), for a rollback."""
    from django.utils import translation

    from games.rule_messages import describe_stored

    Move = apps.get_model("games", "Move")
    ResultChange = apps.get_model("games", "ResultChange")
    labels = {"from_moves": "uit de zetten", "csv_import": "geïmporteerd uit CSV"}
    labels["tsh_import"] = "geïmporteerd uit TSH"
    with translation.override("nl"):
        changed = []
        for move in Move.objects.all().iterator(chunk_size=BATCH):
            move.warnings = [describe_stored(warning) for warning in move.warnings or []]
            if move.problem_code:
                stored = {"code": move.problem_code, "params": move.problem_params}
                move.problem = describe_stored(stored)[:300]
            changed.append(move)
        Move.objects.bulk_update(changed, ["warnings", "problem"], batch_size=BATCH)
    for code, text in labels.items():
        ResultChange.objects.filter(reason_code=code, reason="").update(reason=text)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_moves"),
    ]

    operations = [
        migrations.AddField(
            model_name="move",
            name="problem_code",
            field=models.CharField(
                blank=True,
                help_text="Why the engine refuses this move after an earlier move was corrected.",
                max_length=40,
                verbose_name="problem",
            ),
        ),
        migrations.AddField(
            model_name="move",
            name="problem_params",
            field=models.JSONField(blank=True, default=dict, verbose_name="problem details"),
        ),
        migrations.AddField(
            model_name="resultchange",
            name="reason_code",
            field=models.CharField(
                blank=True,
                choices=[
                    ("from_moves", "from the moves"),
                    ("csv_import", "imported from CSV"),
                    ("tsh_import", "imported from TSH"),
                ],
                max_length=20,
                verbose_name="automatic reason",
            ),
        ),
        migrations.RunPython(to_codes, to_sentences),
        migrations.RemoveField(
            model_name="move",
            name="problem",
        ),
        migrations.AlterField(
            model_name="move",
            name="warnings",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='A list of {"code": …, "params": {…}} from the rules engine.',
                verbose_name="warnings",
            ),
        ),
        migrations.AlterField(
            model_name="resultchange",
            name="reason",
            field=models.TextField(
                blank=True, help_text="As the person typed it.", verbose_name="reason"
            ),
        ),
    ]
