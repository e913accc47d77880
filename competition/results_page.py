"""The round's results page: its rows as one formset, and a posted page turned into one
save of the round's results.

`results_page` is the page to fill in; `results_post` checks every row of a posted page,
hands the rows to `round_record_results` once (a page sent again is saved once,
`clubs.submissions`), and answers with what the view shows: its messages, and the page
again when there is something to correct or check (a refused row, a row whose game
changed under the page), or nothing when the round's page is next. Nothing is saved when
a row is wrong; a row whose game changed meanwhile is marked and kept as typed, and the
other rows are saved.

Django: forms.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.submissions import AlreadySaved, submission_check, submission_once, submission_sent
from competition import selectors
from competition.forms import (
    BaseResultFormSet,
    ResultFormSet,
    ResultRowForm,
    score_names,
    shown_token,
)
from competition.models import Competition, Round
from competition.rulesets import competition_score_max
from competition.services import CompetitionError
from competition.services.rounds import round_record_results
from games.models import Game
from games.services import (
    ResultEntry,
    ResultError,
    ResultInput,
    ResultKind,
    ResultsRecorded,
    result_kind_of,
)


@dataclass
class ResultsPage:
    """What the template shows: a row per game entered here, and the games entered on
    the board (their result comes from the moves, not from this page)."""

    formset: BaseResultFormSet
    by_moves: Sequence[Game]

    def context(self) -> dict[str, Any]:
        rows = [(form.game_obj, form) for form in self.formset.forms if form.game_obj is not None]
        _place_focus([form for _game, form in rows])
        return {
            "formset": self.formset,
            "rows": rows,
            "by_moves": self.by_moves,
            # A round with a table of 3 or 4: every row lists its players with their scores.
            "at_tables": any(len(game.seat_list) > 2 for game, _form in rows),
        }


@dataclass
class ResultsAnswer:
    """The answer to a posted page: messages (level, text) for the reader, and the page
    to show again, or None when the round's page is next; `status`: the page's."""

    page: ResultsPage | None = None
    messages: list[tuple[int, str]] = field(default_factory=list)
    status: int = 200


def results_page(competition: Competition, round_obj: Round) -> ResultsPage:
    """The page to fill in: a row per game of the round that is not entered on the board."""
    all_games = [game for game in selectors.round_games(round_obj) if not game.is_bye]
    by_moves = [game for game in all_games if game.move_count]
    games = [game for game in all_games if not game.move_count]
    return ResultsPage(_results_formset(competition, games), by_moves)


def results_post(
    *, competition: Competition, round_obj: Round, data: Any, by: Any
) -> ResultsAnswer:
    """A posted page: every row checked, then saved together (`round_record_results`), or
    the page again with the marked rows and what to do about them."""
    sent = submission_sent(data)
    try:
        submission_check(sent)
    except AlreadySaved as repeat:
        return _sent_again(competition, round_obj, data, repeat)
    all_games = [game for game in selectors.round_games(round_obj) if not game.is_bye]
    # A row of a game entered on the board meanwhile is still posted: it is marked below.
    by_moves = [game for game in all_games if game.move_count]
    formset = _results_formset(competition, all_games, data=data or None)
    rows = [(form.game_obj, form) for form in formset.forms]
    page = ResultsPage(formset, by_moves)
    if not all(game for game, _form in rows):
        other_round = _(
            "Nothing was saved: a row is for a game that is not in this round. Reload the page."
        )
        return ResultsAnswer(page, [(messages.ERROR, other_round)])
    if not formset.is_valid():
        return ResultsAnswer(page, [_refused_rows(form for _game, form in rows)])
    entries = [_entry_from(form) for game, form in rows if not game.move_count]
    try:
        recorded = submission_once(
            sent,
            by=by,
            kind="results",
            led_to=lambda recorded: f"round {round_obj.pk}" if recorded.changed else None,
            write=lambda: round_record_results(round=round_obj, entries=entries, by=by),
        )
    except AlreadySaved as repeat:
        return _sent_again(competition, round_obj, data, repeat)
    except ResultError as error:
        for game, form in rows:
            if game.pk in error.errors:
                form.add_error(None, error.errors[game.pk])
        return ResultsAnswer(page, [(messages.ERROR, error.message)])
    except CompetitionError as error:
        return ResultsAnswer(page, [(messages.ERROR, error.message)])
    return _saved_answer(competition, round_obj, rows, recorded)


def _sent_again(
    competition: Competition, round_obj: Round, data: Any, repeat: AlreadySaved
) -> ResultsAnswer:
    """A page sent again (its answer or the connection was lost): the round as it is now.
    Changed since it was first sent (390 saved, then 399 sent with the same key), the
    change is not saved: the page again, each row that differs from what is saved now
    marked and kept as typed, on the current version, to be corrected with a reason."""
    if not repeat.edited:
        return ResultsAnswer()
    all_games = [game for game in selectors.round_games(round_obj) if not game.is_bye]
    formset = _results_formset(competition, all_games, data=data)
    formset.is_valid()  # each row's cleaned data, as far as it goes
    rows = [(form.game_obj, form) for form in formset.forms if form.game_obj is not None]
    changed = {
        game.pk: _("Already saved as first sent; the change made afterwards was not saved.")
        for game, form in rows
        if not game.move_count
        and shown_token(form.cleaned_data, len(game.seat_list))
        != ResultRowForm.initial_for(game)["shown"]
    }
    if not changed:
        return ResultsAnswer()  # what was typed is what is saved now
    refused = _(
        "These results had already been saved as they were first sent; the changes made "
        "afterwards were not saved. The marked rows say what is saved now: correct them "
        "here, with a reason, and save again."
    )
    return ResultsAnswer(
        _results_page_again(competition, round_obj, rows, changed),
        [(messages.ERROR, refused)],
        status=409,
    )


def _saved_answer(
    competition: Competition, round_obj: Round, rows: list, recorded: ResultsRecorded
) -> ResultsAnswer:
    """After the save: how many results it saved, and the page again when rows changed
    under it (a row typed over a game entered on the board meanwhile is one of them)."""
    changed_meanwhile = {
        **{
            game.pk: _("Entered on the board in the meantime: the board decides.")
            for game, form in rows
            if game.move_count and form.typed_over
        },
        **recorded.changed_meanwhile,
    }
    saved = _saved_message(recorded.changed)
    if not changed_meanwhile:
        return ResultsAnswer(None, [saved])
    count = len(changed_meanwhile)
    warning = ngettext(
        "%(count)s row changed in the meantime and was not saved: check the marked row.",
        "%(count)s rows changed in the meantime and were not saved: check the marked rows.",
        count,
    ) % {"count": count}
    return ResultsAnswer(
        _results_page_again(competition, round_obj, rows, changed_meanwhile),
        [saved, (messages.WARNING, warning)],
    )


def _refused_rows(forms: Any) -> tuple[int, str]:
    """Why nothing was saved: only scores to confirm (a warning), or rows to correct."""
    marked = [form for form in forms if form.errors]
    if marked and all(form.only_asks_confirmation for form in marked):
        return messages.WARNING, _("Nothing was saved yet: confirm or correct the marked scores.")
    return messages.ERROR, _("Nothing was saved: correct the marked rows.")


def _results_formset(
    competition: Competition, games: Sequence[Game], *, data: Any = None
) -> BaseResultFormSet:
    return ResultFormSet(
        data,
        initial=[ResultRowForm.initial_for(game) for game in games],
        games=games,
        score_max=competition_score_max(competition),
        rules_name=competition.get_rules_display(),
    )


def _stored_now(game: Game) -> str:
    """What the game holds now, for the row that changed under the page."""
    kind = result_kind_of(game)
    if kind is None:
        return _("It has no result now.")
    shown = dict(ResultKind.for_table([player.name for player in game.players]))[kind]
    if any(score is not None for score in game.scores):
        shown = f"{' – '.join(str(score) for score in game.scores if score is not None)} ({shown})"
    return _("Saved now: %(result)s.") % {"result": shown}


def _saved_message(changed: int) -> tuple[int, str]:
    if changed:
        return (
            messages.SUCCESS,
            ngettext("%(count)s result saved.", "%(count)s results saved.", changed)
            % {"count": changed},
        )
    return messages.INFO, _("Nothing changed: no result was saved.")


def _results_page_again(
    competition: Competition, round_obj: Round, rows: list, changed_meanwhile: dict
) -> ResultsPage:
    """The page as it is now, after a save that left rows changed under it: every row
    shows the game's current result, except the marked ones, which keep what was typed
    (on the current version, so that saving again is a deliberate overwrite)."""
    typed = {game.pk: form.cleaned_data for game, form in rows}
    fresh = [game for game in selectors.round_games(round_obj) if not game.is_bye]
    games = [game for game in fresh if not game.move_count]
    data = {
        "form-TOTAL_FORMS": str(len(games)),
        "form-INITIAL_FORMS": str(len(games)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
    }
    for index, game in enumerate(games):
        values = ResultRowForm.initial_for(game)
        if game.pk in changed_meanwhile:
            kept = typed[game.pk]
            names = ("kind", *score_names(len(game.seat_list)))
            values.update({name: kept.get(name) for name in names})
            values.update(reason=kept.get("reason", ""), confirm=kept.get("confirm", ""))
        for name, value in values.items():
            data[f"form-{index}-{name}"] = "" if value is None else str(value)
    formset = _results_formset(competition, games, data=data)
    formset.is_valid()
    for form in formset.forms:
        if form.game_obj.pk in changed_meanwhile:
            form.add_error(None, changed_meanwhile[form.game_obj.pk])
            form.add_error(None, _stored_now(form.game_obj))
    by_moves = [game for game in fresh if game.move_count]
    for game in by_moves:
        if game.pk in changed_meanwhile:
            kept = typed[game.pk]
            scores = [kept.get(name) for name in score_names(len(game.seat_list))]
            shown = " – ".join("–" if score is None else str(score) for score in scores)
            game.typed_on_board = (  # type: ignore[attr-defined]  # for the template
                changed_meanwhile[game.pk],
                kept,
                shown if len(scores) > 2 else "",
            )
    return ResultsPage(formset, by_moves)


def _place_focus(forms: list) -> None:
    """Open the page in the first marked field after a refused save, else in the first
    empty score."""
    focus = next(
        (
            (form, name)
            for find in (ResultRowForm.first_marked_field, ResultRowForm.first_empty_score)
            for form in forms
            if (name := find(form))
        ),
        (None, None),
    )
    for form in forms:
        form.prepare_widgets(autofocus=focus[1] if form is focus[0] else None)


def _entry_from(form: ResultRowForm) -> ResultEntry:
    """A row as the service takes it: nothing to record when it was left as shown."""
    data = form.cleaned_data
    scores = form.scores()
    empty = all(score is None for score in scores)
    result = (
        None
        if (empty and data["kind"] in ResultKind.SCORED) or not form.typed_over
        else ResultInput(data["kind"], scores)
    )
    return ResultEntry(
        game_id=data["game"],
        result=result,
        reason=data.get("reason") or "",
        expected_version=data["version"],
    )
