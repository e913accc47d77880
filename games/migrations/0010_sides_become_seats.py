"""The two sides' fields go: a game's players and scores are its seats (docs/tables.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_seats_from_sides"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="game", name="game_two_different_players"),
        migrations.RemoveConstraint(model_name="game", name="game_bye_has_no_opponent"),
        migrations.RemoveConstraint(model_name="game", name="game_consistent_result"),
        migrations.RemoveConstraint(model_name="game", name="game_claim_has_result_and_player"),
        migrations.RemoveConstraint(model_name="seat", name="seat_side_once_per_game"),
        migrations.RemoveField(model_name="game", name="player_a"),
        migrations.RemoveField(model_name="game", name="player_b"),
        migrations.RemoveField(model_name="game", name="score_a"),
        migrations.RemoveField(model_name="game", name="score_b"),
        migrations.RemoveField(model_name="game", name="winner"),
        migrations.RemoveField(model_name="game", name="starter"),
        migrations.RemoveField(model_name="game", name="claimed_by"),
        migrations.RemoveField(model_name="seat", name="side"),
        migrations.RemoveField(model_name="move", name="side"),
        migrations.RenameField(model_name="game", old_name="starter_seat", new_name="starter"),
        migrations.RenameField(model_name="game", old_name="claimed_seat", new_name="claimed_by"),
        migrations.AlterField(
            model_name="game",
            name="starter",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="The seat that moves first; empty when drawn by lot and not yet recorded.",
                null=True,
                verbose_name="who starts",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="claimed_by",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="The seat whose entry awaits the other players' confirmation.",
                null=True,
                verbose_name="entered by player",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="position",
            field=models.PositiveSmallIntegerField(verbose_name="seat"),
        ),
        migrations.AlterField(
            model_name="move",
            name="seat",
            field=models.PositiveSmallIntegerField(verbose_name="player"),
        ),
        migrations.AlterModelOptions(
            name="seat",
            options={
                "ordering": ["game", "position"],
                "verbose_name": "seat",
                "verbose_name_plural": "seats",
            },
        ),
        migrations.AlterField(
            model_name="game",
            name="counter_result",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The other result a player at the table entered, while it is disputed.",
                verbose_name="other player's result",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(starter__isnull=True) | models.Q(starter__lte=3),
                name="game_starter_is_a_seat",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(confirmation="confirmed")
                | ~models.Q(outcome="") & models.Q(claimed_by__isnull=False),
                name="game_claim_has_result_and_player",
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=["game", "position"], name="seat_position_once_per_game"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(position__lte=3), name="seat_position_at_most_four"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=~models.Q(flag_fell=True, forfeited=True), name="seat_flag_or_forfeit"
            ),
        ),
    ]
