"""Migrations an old server can live with: during an upgrade the servers of the release before
keep running against the migrated database (docs/deployment.md, "An upgrade while old servers
run"). A release only adds: a new column on an existing table is nullable or has a default in
the database (the old release's inserts do not name it), and nothing the old release reads or
writes is removed or renamed in the same release.

Checked on every migration written since the rule, read from Django's own migration graph.
"""

from pathlib import Path

from django.db import migrations
from django.db.migrations.loader import MigrationLoader
from django.db.models import NOT_PROVIDED, ManyToManyField

REPO = Path(__file__).resolve().parents[2]

#: The migrations written before the rule (the release line they belong to has shipped).
BEFORE_THE_RULE = frozenset(
    {
        ("clubs", "0001_initial"),
        ("clubs", "0002_plain_text_names"),
        ("clubs", "0003_history"),
        ("clubs", "0004_player_invite"),
        ("clubs", "0005_throttle"),
        ("clubs", "0006_ratings"),
        ("clubs", "0007_history_duplicate_id"),
        ("clubs", "0008_slip_notation"),
        ("competition", "0001_initial"),
        ("competition", "0002_plain_text_names"),
        ("competition", "0003_competition_changed_at"),
        ("competition", "0004_archive_and_protect"),
        ("competition", "0005_only_confirmed_results"),
        ("competition", "0006_ratings"),
        ("competition", "0007_clock_minutes"),
        ("competition", "0008_duplicate_kind_and_settings"),
        ("competition", "0009_table_size_and_scoring"),
        ("competition", "0010_duplicate_competitions_play_their_evenings_rules"),
        ("competition", "0011_round_pairing_explanation"),
        ("competition", "0012_duplicate_kind_and_settings_moved"),
        ("duplicate", "0001_initial"),
        ("duplicate", "0002_turn_drawn_at"),
        ("duplicate", "0003_duplicate_competition"),
        ("duplicate", "0004_duplicate_competitions_carried_over"),
        ("duplicate", "0005_evening_of_a_duplicate_competition"),
        ("duplicate", "0006_paired_rows_of_duplicate_competitions_removed"),
        ("duplicate", "0007_slip_notation"),
        ("duplicate", "0007_turn_clock"),
        ("duplicate", "0008_duplicate_rules"),
        ("duplicate", "0009_turn_rejected_draws"),
        ("games", "0001_initial"),
        ("games", "0002_moves"),
        ("games", "0003_codes_not_sentences"),
        ("games", "0004_history_replaces_result_changes"),
        ("games", "0005_result_confirmation"),
        ("games", "0006_round_keeps_its_games"),
        ("games", "0007_game_clock"),
        ("games", "0008_seats_hold_the_result"),
        ("games", "0009_seats_from_sides"),
        ("games", "0010_sides_become_seats"),
    }
)

#: What an old server would trip over: a table, column or model gone or renamed under it.
REMOVALS = (
    migrations.RemoveField,
    migrations.DeleteModel,
    migrations.RenameField,
    migrations.RenameModel,
)


def _problems(migration) -> list[str]:
    created = set()
    problems = []
    for operation in migration.operations:
        if isinstance(operation, migrations.CreateModel):
            created.add(operation.name_lower)
        elif isinstance(operation, REMOVALS):
            problems.append(operation.describe())
        elif isinstance(operation, migrations.AddField):
            field = operation.field
            if operation.model_name_lower in created or isinstance(field, ManyToManyField):
                continue  # a new table: no old server writes it
            if not field.null and field.db_default is NOT_PROVIDED:
                problems.append(f"{operation.describe()}: neither null=True nor db_default")
    return problems


def _is_ours(app_label: str) -> bool:
    """An app of this project: Django's and the libraries' migrations are theirs to keep."""
    from django.apps import apps

    path = Path(apps.get_app_config(app_label).path)
    return path.is_relative_to(REPO) and "site-packages" not in path.parts  # not .venv's


def upgrade_problems(loader: MigrationLoader) -> dict[str, list[str]]:
    ours = {
        key: migration
        for key, migration in loader.disk_migrations.items()
        if key not in BEFORE_THE_RULE and _is_ours(key[0])
    }
    found = {f"{app}.{name}": _problems(migration) for (app, name), migration in ours.items()}
    return {key: problems for key, problems in found.items() if problems}


def test_every_migration_since_the_rule_only_adds_what_an_old_server_survives():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    assert upgrade_problems(loader) == {}


def test_a_column_with_only_a_python_default_is_found():
    """The check itself: a column as the old code would have added it is reported."""
    from django.db import models

    class Later(migrations.Migration):
        operations = [
            migrations.AddField("club", "colour", models.CharField(max_length=9, default="red")),
            migrations.AddField("club", "motto", models.CharField(max_length=9, null=True)),
            migrations.AddField("club", "size", models.IntegerField(default=1, db_default=1)),
            migrations.RemoveField("club", "city"),
        ]

    assert _problems(Later("0099_later", "clubs")) == [
        "Add field colour to club: neither null=True nor db_default",
        "Remove field city from club",
    ]
