"""Tables of 2 to 4 (docs/tables.md): the seats get their position, score and result;
the game's starter and claim become seat positions. Filled by 0009, the old fields go in 0010."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_game_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="position",
            field=models.PositiveSmallIntegerField(null=True, verbose_name="seat"),
        ),
        migrations.AddField(
            model_name="seat",
            name="score",
            field=models.IntegerField(blank=True, null=True, verbose_name="board points"),
        ),
        migrations.AddField(
            model_name="seat",
            name="place",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="1 won; equal places share.", null=True, verbose_name="place"
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="flag_fell",
            field=models.BooleanField(default=False, verbose_name="flag fell"),
        ),
        migrations.AddField(
            model_name="seat",
            name="forfeited",
            field=models.BooleanField(default=False, verbose_name="forfeited"),
        ),
        migrations.AddField(
            model_name="seat",
            name="confirmed",
            field=models.BooleanField(
                default=False,
                help_text="This player stands behind the result.",
                verbose_name="confirmed",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="starter_seat",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="claimed_seat",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="move",
            name="seat",
            field=models.PositiveSmallIntegerField(null=True, verbose_name="player"),
        ),
    ]
