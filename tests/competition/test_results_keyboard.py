"""The results page as a secretary types it: where the cursor starts and returns, what a
score may look like, which scores need a confirmation, and messages that count in Dutch.

Every refused save changes nothing and keeps what was typed. The keyboard route itself
(Tab, `*`, Enter) runs in a real browser: tests/e2e/test_results_keyboard.py.
"""

import html as html_lib
import re

import pytest
from django.utils import translation
from django.utils.translation import ngettext

import rules
from clubs.models import HistoryEntry
from competition.models import Competition, Round
from competition.rulesets import competition_score_max, plausible_score_max
from competition.services.rounds import round_record_results
from games.models import Game, Outcome
from games.services import ResultEntry, ResultInput
from tests.competition import test_results_entry
from tests.competition.test_results_entry import post_data, results_url, row_segments, tab_order
from tests.seats import Winner, pair

pytestmark = pytest.mark.django_db

round_games = test_results_entry.round_games  # three tables and a bye, Gouds 8


def stored(round_obj) -> list[tuple]:
    """Everything a save could change: the games, their history, the round's status."""
    games = Game.objects.filter(round=round_obj).with_seats().order_by("table", "pk")
    return [
        *((game.pk, *pair(game), game.version) for game in games),
        HistoryEntry.objects.filter(game_id__in=games.values("pk")).count(),
        Round.objects.get(pk=round_obj.pk).status,
    ]


def error_line(html: str, index: int) -> str:
    match = re.search(rf'id="form-{index}-errors"[^>]*>(.*?)</td>', html, re.S)
    assert match, f"row {index} has no error line"
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


def flash(response) -> list[str]:
    """The messages on the page as the secretary reads them (read from the HTML, not from
    the captured context: a live-server thread of another test that renders at the same
    moment adds its own context to the capture)."""
    alerts = re.findall(
        r'<div class="alert [^"]*"[^>]* role="alert">(.*?)</div>', response.content.decode(), re.S
    )
    return [html_lib.unescape(alert).strip() for alert in alerts]


def test_the_cursor_starts_in_the_first_empty_score(secretary_client, round_games):
    round_obj, games = round_games
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(games[0].pk, ResultInput.of_pair("normal", 300, 200))],
        by=None,
    )
    page = tab_order(secretary_client.get(results_url(round_obj)).content.decode())
    assert page.autofocus == "form-1-score_a"
    # A saved table's reason stays out of the Tab order until the row changes (script).
    assert "form-0-reason" not in page.order


@pytest.mark.parametrize("typed", ["2a5", "25e", "²5", "٣", "1e3", "3.5", "25,", "4\x0012", "−5"])
def test_a_score_is_ascii_digits_or_refused_with_a_message(secretary_client, round_games, typed):
    round_obj, games = round_games
    before = stored(round_obj)
    data = post_data(
        games, [{"score_a": 300, "score_b": 280}, {"score_a": typed, "score_b": 250}, {}]
    )
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    assert stored(round_obj) == before
    html = response.content.decode()
    assert error_line(html, 1) == (
        "Tafel 2: Bordpunten van Cas: Typ alleen de cijfers 0 tot en met 9 "
        "(met een minteken voor een negatieve score)."
    )
    page = tab_order(html)
    assert page.autofocus == "form-1-score_a"
    # Every typed value is still there, the refused one included.
    segments = row_segments(html)
    assert 'value="300"' in segments[games[0].pk] and 'value="280"' in segments[games[0].pk]
    if "\x00" not in typed:
        assert f'value="{html_lib.escape(typed)}"' in segments[games[1].pk]
    assert flash(response) == ["Er is niets opgeslagen: verbeter de gemarkeerde regels."]


def test_after_a_refused_save_the_cursor_is_in_the_first_marked_field(
    secretary_client, round_games
):
    round_obj, games = round_games
    data = post_data(
        games, [{"score_a": 300, "score_b": 280}, {"score_a": 300}, {"kind": "forfeit_a"}]
    )
    response = secretary_client.post(results_url(round_obj), data)
    html = response.content.decode()
    assert tab_order(html).autofocus == "form-1-score_b"
    assert error_line(html, 1) == (
        "Tafel 2: Bordpunten van Do: Vul de bordpunten van beide spelers in."
    )
    assert 'id="form-2-errors"' not in html
    # The chosen outcome of the third table is kept too.
    assert re.search(r'<option value="forfeit_a" selected>', row_segments(html)[games[2].pk])


def test_a_flag_fall_needs_scores_and_a_forfeit_has_none(secretary_client, round_games):
    round_obj, games = round_games
    before = stored(round_obj)
    data = post_data(
        games,
        [{"kind": "flag_a"}, {"kind": "forfeit_b", "score_a": 300, "score_b": ""}, {}],
    )
    response = secretary_client.post(results_url(round_obj), data)
    html = response.content.decode()
    assert stored(round_obj) == before
    assert "Bordpunten van An: Vul de bordpunten van beide spelers in." in error_line(html, 0)
    assert (
        "Bordpunten van Cas: Bij een walk-over of een niet naar behoren gespeelde partij"
        in error_line(html, 1)
    )
    assert tab_order(html).autofocus == "form-0-score_a"


def test_a_correction_without_reason_marks_the_reason(secretary_client, round_games):
    round_obj, games = round_games
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(games[0].pk, ResultInput.of_pair("normal", 300, 200))],
        by=None,
    )
    before = stored(round_obj)
    data = post_data(games, [{"score_a": 300, "score_b": 210}, {}, {}])
    html = secretary_client.post(results_url(round_obj), data).content.decode()
    assert stored(round_obj) == before
    page = tab_order(html)
    assert page.autofocus == "form-0-reason"
    assert "form-0-reason" in page.order  # marked: back in the Tab order
    assert "Reden: Deze partij heeft al een uitslag" in error_line(html, 0)


def test_gouds_8_asks_to_confirm_a_score_above_500(secretary_client, round_games):
    round_obj, games = round_games
    assert round_obj.competition.rules == Competition.Rules.GOUDS_8
    before = stored(round_obj)
    data = post_data(
        games, [{"score_a": 612, "score_b": 300}, {"score_a": 350, "score_b": 340}, {}]
    )
    response = secretary_client.post(results_url(round_obj), data)
    html = response.content.decode()
    assert stored(round_obj) == before  # not even the plausible second table
    assert error_line(html, 0) == (
        "Tafel 1: Bordpunten van An: 612 is hoger dan gebruikelijk bij Gouds 8 (tot 500). "
        "Klopt dat, vink dan ‘klopt’ aan en sla opnieuw op. klopt"
    )
    assert flash(response) == [
        "Er is nog niets opgeslagen: bevestig of verbeter de gemarkeerde scores."
    ]
    checkbox = re.search(r'<input[^>]*name="form-0-confirm"[^>]*>', html).group(0)
    assert 'value="612/300"' in checkbox and "checked" not in checkbox
    assert tab_order(html).order[:4] == [
        "form-0-score_a",
        "form-0-score_b",
        "form-0-confirm",
        "form-1-score_a",
    ]

    # A confirmation is for the scores it was given with, not for a new typo.
    retyped = {**data, "form-0-score_a": "6120", "form-0-confirm": "612/300"}
    response = secretary_client.post(results_url(round_obj), retyped)
    assert stored(round_obj) == before
    assert "6120 is hoger dan gebruikelijk" in error_line(response.content.decode(), 0)

    response = secretary_client.post(results_url(round_obj), {**data, "form-0-confirm": "612/300"})
    assert response.status_code == 302
    assert pair(Game.objects.get(pk=games[0].pk))[1:] == (Winner.A, 612, 300)

    # Saved once confirmed, it is not asked again when the page is saved later.
    data = post_data(
        games, [{"score_a": 612, "score_b": 300}, {"score_a": 350, "score_b": 340}, {}]
    )
    assert secretary_client.post(results_url(round_obj), data).status_code == 302


def test_a_confirmed_row_stays_confirmed_when_another_row_is_refused(secretary_client, round_games):
    round_obj, games = round_games
    data = post_data(
        games,
        [{"score_a": 612, "score_b": 300, "confirm": "612/300"}, {"score_a": "2a5"}, {}],
    )
    html = secretary_client.post(results_url(round_obj), data).content.decode()
    checkbox = re.search(r'<input[^>]*name="form-0-confirm"[^>]*>', html).group(0)
    assert "checked" in checkbox
    assert tab_order(html).autofocus == "form-1-score_a"


def test_a_negative_score_needs_a_confirmation(secretary_client, round_games):
    round_obj, games = round_games
    before = stored(round_obj)
    data = post_data(games, [{"score_a": "-5", "score_b": 120}, {}, {}])
    html = secretary_client.post(results_url(round_obj), data).content.decode()
    assert stored(round_obj) == before
    assert "-5 is een negatieve score." in error_line(html, 0)
    assert tab_order(html).autofocus == "form-0-score_a"
    response = secretary_client.post(results_url(round_obj), {**data, "form-0-confirm": "-5/120"})
    assert response.status_code == 302
    assert Game.objects.get(pk=games[0].pk).scores[0] == -5


def test_standard_rules_allow_more_before_asking(secretary_client, round_games):
    round_obj, games = round_games
    Competition.objects.filter(pk=round_obj.competition_id).update(rules=Competition.Rules.STANDARD)
    data = post_data(games, [{"score_a": 612, "score_b": 300}, {"score_a": 801, "score_b": 20}, {}])
    html = secretary_client.post(results_url(round_obj), data).content.decode()
    assert 'id="form-0-errors"' not in html
    assert "801 is hoger dan gebruikelijk bij standaardregels (tot 800)." in error_line(html, 1)


def test_the_plausible_bound_follows_the_rule_set(competition):
    assert plausible_score_max(rules.GOUDS_8) == 500
    assert plausible_score_max(rules.SBNL_WEDSTRIJD) == 800
    competition.rules = Competition.Rules.CUSTOM
    competition.custom_rules = {**rules.GOUDS_8.to_dict(), "name": "kort", "turn_limit": 6}
    assert competition_score_max(competition) == 375
    competition.custom_rules = {"name": 3}  # unreadable: the standard bound
    assert competition_score_max(competition) == 800


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("nl", "1 uitslag opgeslagen.", "2 uitslagen opgeslagen."),
        ("en", "1 result saved.", "2 results saved."),
    ],
)
def test_saved_counts_in_singular_and_plural(
    client, secretary_client, round_games, settings, language, one, two
):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    round_obj, games = round_games
    data = post_data(games, [{"score_a": 300, "score_b": 200}, {}, {}])
    response = secretary_client.post(results_url(round_obj), data, follow=True)
    assert flash(response) == [one]
    data = post_data(
        games,
        [{"score_a": 300, "score_b": 200}, {"score_a": 1, "score_b": 2}, {"kind": "annulled"}],
    )
    response = secretary_client.post(results_url(round_obj), data, follow=True)
    assert flash(response) == [two]
    nothing = {
        "nl": "Er is niets veranderd: geen uitslag opgeslagen.",
        "en": "Nothing changed: no result was saved.",
    }[language]
    data = post_data(
        games,
        [{"score_a": 300, "score_b": 200}, {"score_a": 1, "score_b": 2}, {"kind": "annulled"}],
    )
    response = secretary_client.post(results_url(round_obj), data, follow=True)
    assert flash(response) == [nothing]
    assert Game.objects.filter(round=round_obj, outcome=Outcome.PENDING).count() == 0


@pytest.mark.parametrize(
    ("count", "dutch"),
    [
        (1, "Gerangschikt op gemiddelde per partij; spelers met minder dan 1 partij staan"),
        (3, "Gerangschikt op gemiddelde per partij; spelers met minder dan 3 partijen staan"),
    ],
)
def test_the_standings_say_partij_or_partijen(client, competition, count, dutch):
    Competition.objects.filter(pk=competition.pk).update(ranking="average", min_games=count)
    response = client.get(competition.get_absolute_url())
    assert dutch in response.content.decode()


def test_other_count_messages_have_plural_forms():
    with translation.override("nl"):
        assert ngettext("%(count)s game", "%(count)s games", 1) % {"count": 1} == "1 partij"
        assert ngettext("%(count)s round", "%(count)s rounds", 1) % {"count": 1} == "1 ronde"
        assert ngettext("%(count)s round", "%(count)s rounds", 0) % {"count": 0} == "0 ronden"
        assert (
            ngettext("%(count)s move read from the file.", "%(count)s moves read from the file.", 1)
            % {"count": 1}
            == "1 zet uit het bestand gelezen."
        )
