"""games.services: turning typed results into stored fields, recording and correcting them."""

from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from games.models import Game, Outcome, Seat
from games.services import (
    ResultEntry,
    ResultError,
    ResultInput,
    ResultKind,
    TableResult,
    game_record_result,
    games_create,
    games_record_results,
    result_fields,
    result_kind_of,
    result_store,
)
from tests.factories import GameFactory, PlayerFactory, RoundFactory, result_changes, secretary_of
from tests.seats import Winner, pair, pair_spec, winner

NOW = datetime(2026, 10, 6, 21, 30, tzinfo=UTC)


def fields(outcome, winner, score_a=None, score_b=None):
    """A pair's result as `snapshot` reads it off the seats."""
    return {"outcome": outcome, "winner": winner, "score_a": score_a, "score_b": score_b}


def recorded(outcome, scores=(None, None), flag_fell=(), forfeited=()):
    """A result as the history keeps it (`TableResult.snapshot`)."""
    return {
        "outcome": outcome,
        "scores": list(scores),
        "flag_fell": list(flag_fell),
        "forfeited": list(forfeited),
    }


PENDING = recorded(Outcome.PENDING)


def table(outcome, scores=(None, None), flag_fell=(), forfeited=()):
    seats = range(len(scores))
    return TableResult(
        outcome,
        tuple(scores),
        tuple(seat in flag_fell for seat in seats),
        tuple(seat in forfeited for seat in seats),
    )


@pytest.mark.parametrize(
    ("typed", "stored", "places"),
    [
        (ResultInput.of_pair("normal", 320, 290), table(Outcome.NORMAL, (320, 290)), (1, 2)),
        (ResultInput.of_pair("normal", 290, 320), table(Outcome.NORMAL, (290, 320)), (2, 1)),
        (ResultInput.of_pair("normal", 300, 300), table(Outcome.NORMAL, (300, 300)), (1, 1)),
        (ResultInput.of_pair("normal", -5, 0), table(Outcome.NORMAL, (-5, 0)), (2, 1)),
        # Flag fall: the player whose flag fell loses, even with the higher score.
        (
            ResultInput.of_pair("flag_a", 400, 200),
            table(Outcome.FLAG_FALL, (400, 200), flag_fell=[0]),
            (2, 1),
        ),
        (
            ResultInput.of_pair("flag_b", 150, 380),
            table(Outcome.FLAG_FALL, (150, 380), flag_fell=[1]),
            (1, 2),
        ),
        (ResultInput.of_pair("forfeit_a"), table(Outcome.FORFEIT, forfeited=[0]), (None, 1)),
        (ResultInput.of_pair("forfeit_b"), table(Outcome.FORFEIT, forfeited=[1]), (1, None)),
        (
            ResultInput.of_pair("forfeit_both"),
            table(Outcome.FORFEIT, forfeited=[0, 1]),
            (None, None),
        ),
        (ResultInput.of_pair("annulled"), table(Outcome.ANNULLED), (None, None)),
    ],
    ids=lambda value: value.kind if isinstance(value, ResultInput) else "",
)
def test_result_fields(typed, stored, places):
    assert result_fields(typed) == stored
    assert stored.places() == places


@pytest.mark.parametrize(
    ("typed", "stored", "places"),
    [
        # At a table of 3 or 4, a forfeit with the others' board points: they played.
        (
            ResultInput("forfeit_c", (300, 412, None)),
            table(Outcome.NORMAL, (300, 412, None), forfeited=[2]),
            (2, 1, None),
        ),
        (
            ResultInput("forfeit_a", (None, 250, 250, 380)),
            table(Outcome.NORMAL, (None, 250, 250, 380), forfeited=[0]),
            (None, 2, 2, 1),
        ),
        # None typed: nobody played; those who came win against who did not.
        (
            ResultInput("forfeit_d", (None,) * 4),
            table(Outcome.FORFEIT, (None,) * 4, forfeited=[3]),
            (1, 1, 1, None),
        ),
    ],
)
def test_a_table_plays_without_who_did_not_come(typed, stored, places):
    assert result_fields(typed, len(typed.scores)) == stored
    assert stored.places() == places


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        (
            ResultInput("forfeit_c", (300, None, None)),
            "Enter the board points of every player who came, or none at all if nobody played.",
        ),
        (
            ResultInput("forfeit_c", (300, 200, 100)),
            "A player who did not come has no board points; leave them empty.",
        ),
        (
            ResultInput("forfeit_c", (300, 10000, None)),
            "Board points must lie between -999 and 9999.",
        ),
    ],
)
def test_a_table_without_who_did_not_come_refused_in_english(typed, english):
    with translation.override("en"), pytest.raises(ResultError) as caught:
        result_fields(typed, len(typed.scores))
    with translation.override("en"):
        assert str(caught.value.message) == english


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("size", "kind", "scores", "outcome", "places"),
    [
        # Two who came played each other, without the two who did not.
        (4, "forfeit_bc", (300, None, None, 330), Outcome.NORMAL, [2, None, None, 1]),
        # Nobody played: the two who came each win against both who did not.
        (4, "forfeit_ad", (None,) * 4, Outcome.FORFEIT, [None, 1, 1, None]),
        # One came: she wins against everyone, without a game.
        (4, "forfeit_abd", (None,) * 4, Outcome.FORFEIT, [None, None, 1, None]),
        (3, "forfeit_ab", (None,) * 3, Outcome.FORFEIT, [None, None, 1]),
        # Nobody came: each loses, as a pair's "forfeit: both".
        (3, "forfeit_abc", (None,) * 3, Outcome.FORFEIT, [None, None, None]),
    ],
)
def test_two_or_three_who_did_not_come_to_a_table(size, kind, scores, outcome, places):
    game = GameFactory(players=PlayerFactory.create_batch(size))
    result_store(game, result_fields(ResultInput(kind, scores), size))
    game.save()
    stored = Game.objects.with_seats().get(pk=game.pk)
    assert stored.outcome == outcome
    assert [seat.place for seat in stored.seat_list] == places
    assert result_kind_of(stored) == kind


@pytest.mark.parametrize(
    ("size", "kind", "scores"),
    [
        (3, "forfeit_ab", (None, None, 300)),  # one alone did not play
        (4, "forfeit_abd", (None, None, 300, None)),
        (4, "forfeit_bc", (300, 10, None, 330)),  # who did not come has no score
        (4, "forfeit_bc", (300, None, None, None)),  # both who came have one
    ],
)
def test_the_board_points_must_fit_who_came(size, kind, scores):
    with pytest.raises(ResultError):
        result_fields(ResultInput(kind, scores), size)


@pytest.mark.django_db
def test_a_table_played_without_who_did_not_come_is_typed_as_their_forfeit():
    game = GameFactory(players=PlayerFactory.create_batch(4))
    result_store(game, result_fields(ResultInput("forfeit_b", (300, None, 280, 330)), 4))
    game.save()
    stored = Game.objects.with_seats().get(pk=game.pk)
    assert stored.outcome == Outcome.NORMAL
    assert [seat.place for seat in stored.seat_list] == [2, None, 3, 1]
    assert result_kind_of(stored) == "forfeit_b"


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(ResultKind.values))
def test_result_kind_of_inverts_result_fields(kind):
    # A table of 4 for the codes of a third or fourth seat and of two or three flags or
    # forfeits ("forfeit_ab" at a pair is "forfeit_both").
    several = kind.startswith(("flag_", "forfeit_")) and len(kind.split("_")[1]) > 1
    size = 4 if kind[-1] in "cd" or (several and kind != "forfeit_both") else 2
    scored = kind in ResultKind.SCORED
    scores = (310, 270, 250, 230)[:size] if scored else (None,) * size
    game = GameFactory(players=PlayerFactory.create_batch(size))
    result_store(game, result_fields(ResultInput(kind, scores), size))
    game.save()
    assert result_kind_of(Game.objects.with_seats().get(pk=game.pk)) == kind
    assert result_kind_of(GameFactory()) is None


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        (ResultInput.of_pair("resign"), "Unknown outcome “resign”."),
        (ResultInput.of_pair("normal", 300, None), "Enter the board points of both players."),
        (ResultInput.of_pair("flag_a", None, None), "Enter the board points of both players."),
        (ResultInput.of_pair("normal", 10000, 0), "Board points must lie between -999 and 9999."),
        (ResultInput.of_pair("normal", 0, -1000), "Board points must lie between -999 and 9999."),
        (
            ResultInput.of_pair("forfeit_a", 0, None),
            "A forfeited or annulled game has no board points; leave them empty.",
        ),
        (
            ResultInput.of_pair("annulled", 100, 100),
            "A forfeited or annulled game has no board points; leave them empty.",
        ),
    ],
)
def test_result_fields_errors_in_english(typed, english):
    with translation.override("en"), pytest.raises(ResultError) as caught:
        result_fields(typed)
    with translation.override("en"):
        assert str(caught.value.message) == english


# Dutch is the default language; msgids relied on (locale/nl/LC_MESSAGES/django.po):
BOTH_SCORES_NL = "Vul de bordpunten van beide spelers in."
RANGE_NL = "Bordpunten moeten tussen -999 en 9999 liggen."
REASON_NL = "Deze partij heeft al een uitslag: geef een reden voor de correctie."
NOTHING_SAVED_NL = "Er is niets opgeslagen: verbeter de gemarkeerde regels."


def _dutch(message) -> str:
    with translation.override("nl"):
        return str(message)


def test_result_errors_are_in_dutch():
    with translation.override("nl"), pytest.raises(ResultError) as caught:
        result_fields(ResultInput.of_pair("normal", 300, None))
    assert _dutch(caught.value.message) == BOTH_SCORES_NL

    with translation.override("nl"), pytest.raises(ResultError) as caught:
        result_fields(ResultInput.of_pair("normal", 10000, 0))
    assert _dutch(caught.value.message) == RANGE_NL


def test_dutch_is_the_default_language():
    # With no language activated, settings.LANGUAGE_CODE applies.
    previous = translation.get_language()
    translation.deactivate()
    try:
        with pytest.raises(ResultError) as caught:
            result_fields(ResultInput.of_pair("flag_b", None, 100))
        assert str(caught.value.message) == BOTH_SCORES_NL
    finally:
        translation.activate(previous)


@pytest.mark.django_db
def test_correction_error_is_dutch():
    game = GameFactory(played=True)
    with translation.override("nl"), pytest.raises(ResultError) as caught:
        game_record_result(game=game, result=ResultInput.of_pair("normal", 100, 200), by=None)
    assert _dutch(caught.value.message) == REASON_NL


# --- recording one result ----------------------------------------------------------------


def snapshot(game: Game) -> dict:
    game.refresh_from_db()
    outcome, won, score_a, score_b = pair(game)
    return {
        "outcome": outcome,
        "winner": won,
        "score_a": score_a,
        "score_b": score_b,
        "version": game.version,
    }


@pytest.mark.django_db
def test_first_entry_needs_no_reason_and_is_audited():
    game = GameFactory()
    user = secretary_of(game.round.competition.club)
    saved = game_record_result(
        game=game, result=ResultInput.of_pair("normal", 350, 300), by=user, now=NOW
    )
    assert snapshot(game) == {**fields(Outcome.NORMAL, Winner.A, 350, 300), "version": 1}
    assert (saved.entered_by, saved.entered_at) == (user, NOW)
    change = result_changes(game_id=game.pk).get()
    assert change.before == PENDING
    assert change.after == recorded("normal", [350, 300])
    assert (change.by, change.at, change.reason) == (user, NOW, "")


@pytest.mark.django_db
@pytest.mark.parametrize("reason", ["", "   "])
def test_correction_without_reason_is_refused(reason):
    game = GameFactory()
    game_record_result(game=game, result=ResultInput.of_pair("normal", 350, 300), by=None)
    before = snapshot(game)
    with pytest.raises(ResultError):
        game_record_result(
            game=game, result=ResultInput.of_pair("normal", 300, 350), by=None, reason=reason
        )
    assert snapshot(game) == before
    assert result_changes(game_id=game.pk).count() == 1


@pytest.mark.django_db
def test_correction_with_reason_keeps_before_and_after():
    game = GameFactory()
    user = secretary_of(game.round.competition.club)
    game_record_result(game=game, result=ResultInput.of_pair("normal", 350, 300), by=None)
    game_record_result(
        game=game,
        result=ResultInput.of_pair("flag_b", 350, 300),
        by=user,
        reason="  vlag van Bert viel, niet van Anna  ",
        now=NOW,
    )
    assert snapshot(game) == {**fields(Outcome.FLAG_FALL, Winner.A, 350, 300), "version": 2}
    assert result_changes(game_id=game.pk).count() == 2
    change = result_changes(game_id=game.pk, at=NOW).get()
    assert change.reason == "vlag van Bert viel, niet van Anna"
    assert change.before == recorded("normal", [350, 300])
    assert change.after == recorded("flag_fall", [350, 300], flag_fell=[1])
    assert change.by == user


@pytest.mark.django_db
def test_the_same_result_again_changes_nothing():
    game = GameFactory()
    game_record_result(game=game, result=ResultInput.of_pair("normal", 350, 300), by=None)
    game_record_result(game=game, result=ResultInput.of_pair("normal", 350, 300), by=None)
    assert snapshot(game)["version"] == 1
    assert result_changes(game_id=game.pk).count() == 1


@pytest.mark.django_db
def test_stale_version_is_refused():
    game = GameFactory()
    seen_version = game.version
    game_record_result(game=game, result=ResultInput.of_pair("normal", 350, 300), by=None)
    before = snapshot(game)
    with pytest.raises(ResultError) as caught, translation.override("en"):
        game_record_result(
            game=game,
            result=ResultInput.of_pair("normal", 200, 300),
            by=None,
            reason="typo",
            expected_version=seen_version,
        )
    with translation.override("en"):
        assert "in the meantime" in str(caught.value.message)
    assert snapshot(game) == before
    # With the current version the correction goes through.
    game_record_result(
        game=game,
        result=ResultInput.of_pair("normal", 200, 300),
        by=None,
        reason="typo",
        expected_version=before["version"],
    )
    assert snapshot(game)["score_a"] == 200


@pytest.mark.django_db
def test_a_bye_takes_no_result():
    game = GameFactory(bye=True)
    with pytest.raises(ResultError):
        game_record_result(game=game, result=ResultInput.of_pair("forfeit_a"), by=None, reason="x")
    assert snapshot(game)["outcome"] == Outcome.BYE


# --- recording a batch -------------------------------------------------------------------


@pytest.fixture
def three_games(db):
    round_obj = RoundFactory()
    return [GameFactory(round=round_obj, table=table) for table in (1, 2, 3)]


@pytest.mark.django_db
def test_batch_records_every_row(three_games):
    first, second, third = three_games
    changed = games_record_results(
        entries=[
            ResultEntry(first.pk, ResultInput.of_pair("normal", 300, 200)),
            ResultEntry(second.pk, ResultInput.of_pair("forfeit_both")),
            ResultEntry(third.pk, None),  # left empty
        ],
        by=None,
    )
    assert changed.changed == 2
    assert snapshot(first)["winner"] == Winner.A
    assert snapshot(second)["outcome"] == Outcome.FORFEIT
    assert snapshot(third)["outcome"] == Outcome.PENDING


@pytest.mark.django_db
def test_batch_is_all_or_nothing(three_games):
    first, second, third = three_games
    game_record_result(game=third, result=ResultInput.of_pair("normal", 300, 200), by=None)
    before = [snapshot(game) for game in three_games]
    changes_before = result_changes().count()
    with pytest.raises(ResultError) as caught:
        games_record_results(
            entries=[
                ResultEntry(first.pk, ResultInput.of_pair("normal", 300, 250)),  # fine
                ResultEntry(second.pk, ResultInput.of_pair("normal", 300, None)),  # one score
                ResultEntry(
                    third.pk, ResultInput.of_pair("normal", 200, 300)
                ),  # correction, no reason
            ],
            by=None,
        )
    assert set(caught.value.errors) == {second.pk, third.pk}
    with translation.override("en"):
        assert str(caught.value.errors[second.pk]) == "Enter the board points of both players."
        assert "reason" in str(caught.value.errors[third.pk])
    assert [snapshot(game) for game in three_games] == before
    assert result_changes().count() == changes_before


@pytest.mark.django_db
def test_batch_refuses_stale_and_unknown_games(three_games):
    first, second, _third = three_games
    game_record_result(game=second, result=ResultInput.of_pair("normal", 300, 200), by=None)
    missing_id = max(game.pk for game in three_games) + 1000
    with pytest.raises(ResultError) as caught:
        games_record_results(
            entries=[
                ResultEntry(first.pk, ResultInput.of_pair("normal", 300, 250), expected_version=0),
                ResultEntry(
                    second.pk, ResultInput.of_pair("normal", 1, 2), "typo", expected_version=0
                ),
                ResultEntry(missing_id, ResultInput.of_pair("annulled")),
            ],
            by=None,
        )
    assert set(caught.value.errors) == {second.pk, missing_id}
    assert snapshot(first)["outcome"] == Outcome.PENDING


def test_batch_error_summary_is_dutch(db, three_games):
    with translation.override("nl"), pytest.raises(ResultError) as caught:
        games_record_results(
            entries=[ResultEntry(three_games[0].pk, ResultInput.of_pair("normal", None, 5))],
            by=None,
        )
    assert _dutch(caught.value.message) == NOTHING_SAVED_NL
    assert _dutch(caught.value.errors[three_games[0].pk]) == BOTH_SCORES_NL


# --- creating games ----------------------------------------------------------------------


@pytest.mark.django_db
def test_games_create_makes_games_and_seats():
    round_obj = RoundFactory()
    anna, bert, cor = PlayerFactory.create_batch(3)
    two, bye = games_create(
        round_id=round_obj.pk,
        pairings=[
            pair_spec(player_a=anna.pk, player_b=bert.pk, table=1, starter="b"),
            pair_spec(player_a=cor.pk, player_b=None),
        ],
    )
    assert (two.outcome, winner(two), two.starting_player) == (
        Outcome.PENDING,
        Winner.UNDECIDED,
        bert,
    )
    assert (bye.outcome, winner(bye), bye.is_bye, bye.has_result) == (
        Outcome.BYE,
        Winner.A,
        True,
        True,
    )
    seated = set(Seat.objects.filter(round=round_obj).values_list("player_id", "position", "place"))
    assert seated == {(anna.pk, 0, None), (bert.pk, 1, None), (cor.pk, 0, 1)}


@pytest.mark.django_db
def test_games_create_refuses_a_player_twice():
    round_obj = RoundFactory()
    anna, bert, cor = PlayerFactory.create_batch(3)
    with pytest.raises(IntegrityError), transaction.atomic():
        games_create(
            round_id=round_obj.pk,
            pairings=[pair_spec(anna.pk, bert.pk, 1), pair_spec(cor.pk, anna.pk, 2)],
        )
    assert not Game.objects.filter(round=round_obj).exists()
