"""The result changes move into the club's one history (clubs.HistoryEntry), then go."""

from django.db import migrations

ACTIONS = {True: "result.correct", False: "result.enter"}


def to_history(apps, schema_editor):
    ResultChange = apps.get_model("games", "ResultChange")
    HistoryEntry = apps.get_model("clubs", "HistoryEntry")
    changes = ResultChange.objects.select_related(
        "changed_by", "game__player_a", "game__player_b", "game__round__competition"
    ).order_by("changed_at", "pk")
    entries = []
    for change in changes.iterator():
        game = change.game
        names = [p.name for p in (game.player_a, game.player_b) if p is not None]
        had_result = (change.before or {}).get("outcome") not in (None, "")  # "": pending
        entries.append(
            HistoryEntry(
                club_id=game.round.competition.club_id,
                at=change.changed_at,
                by=change.changed_by,
                by_name=change.changed_by.username if change.changed_by else "",
                action=ACTIONS[had_result],
                object_type="game",
                object_id=game.pk,
                object_label=" – ".join(names),
                competition_id=game.round.competition_id,
                round_number=game.round.number,
                game_id=game.pk,
                before=change.before,
                after=change.after,
                reason_code=change.reason_code,
                reason=change.reason,
            )
        )
    HistoryEntry.objects.bulk_create(entries, batch_size=500)


def from_history(apps, schema_editor):
    ResultChange = apps.get_model("games", "ResultChange")
    HistoryEntry = apps.get_model("clubs", "HistoryEntry")
    Game = apps.get_model("games", "Game")
    games = set(Game.objects.values_list("pk", flat=True))
    ResultChange.objects.bulk_create(
        ResultChange(
            game_id=entry.game_id,
            changed_by_id=entry.by_id,
            changed_at=entry.at,
            reason_code=entry.reason_code,
            reason=entry.reason,
            before=entry.before,
            after=entry.after,
        )
        for entry in HistoryEntry.objects.filter(action__startswith="result.").iterator()
        if entry.game_id in games
    )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0003_history"),
        ("competition", "0003_competition_changed_at"),
        ("games", "0003_codes_not_sentences"),
    ]

    operations = [
        migrations.RunPython(to_history, from_history),
        migrations.DeleteModel(name="ResultChange"),
    ]
