"""``{% scoresheet_rows %}``: the scoresheet's rows, built here, not in the template.

The board page is the one read after every move, and with its correction form per move
the scoresheet cost the template language more than the rest of the page. The markup is
the template's was (`templates/games/_scoresheet.html` keeps the table around it).
"""

from django import template
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.rule_messages import describe_stored
from games.timing import clock_time

register = template.Library()


@register.simple_tag(takes_context=True)
def scoresheet_rows(context, lines, *, editable: bool = False, link: bool = False) -> SafeString:
    if not lines:
        return format_html(
            '<tr><td colspan="7" class="text-muted">{}</td></tr>', _("No moves yet.")
        )
    request = context.get("request")
    game = context.get("game")
    form = ""
    if editable and request is not None and game is not None:
        form = format_html(
            '<form method="post" action="{}" class="d-flex gap-1 mt-1">'
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
            '<input type="hidden" name="version" value="{}">',
            reverse("move_correct", args=[game.pk]),
            get_token(request),
            game.version,
        )
    labels = {
        "time": _("thinking time"),
        "correct": _("correct"),
        "move": _("Move"),
        "rack": _("rack"),
        "rack_optional": _("Rack (optional)"),
        "save": _("Save"),
    }
    return mark_safe("".join(_row(line, form, labels, link) for line in lines))


def _row(line, form: str, labels: dict[str, str], link: bool) -> str:
    move = line.move
    problem = move.problem
    css = "table-danger" if problem else "table-info" if line.is_current else ""
    number = (
        format_html('<a href="?zet={}">{}</a>', move.number, move.number) if link else move.number
    )
    if line.is_play:
        shown = format_html('<span class="font-monospace text-nowrap">{}</span>', move.notation)
    else:
        shown = format_html('<span class="move-words">{}</span>', line.text)
    if move.think_ms is not None:
        shown = format_html(
            '{} <small class="text-muted text-nowrap think-time" title="{}">⏱ {}</small>',
            shown,
            labels["time"],
            clock_time(move.think_ms),
        )
    words = format_html_join(", ", "{} {}", ((word, score) for word, score in move.words))
    warnings = format_html_join(
        "",
        '<div class="text-warning-emphasis warning">⚠ {}</div>',
        ((describe_stored(warning),) for warning in move.warnings),
    )
    problem_html = (
        format_html('<div class="text-danger problem">{}</div>', problem) if problem else ""
    )
    correction = ""
    if form:
        correction = format_html(
            '<td><details><summary class="small" title="{}" aria-label="{} {}">✎</summary>{}'
            '<input type="hidden" name="number" value="{}">'
            '<input name="notation" value="{}" class="form-control form-control-sm '
            'font-monospace" aria-label="{} {}">'
            '<input name="rack" value="{}" maxlength="8" class="form-control form-control-sm '
            'font-monospace input-tiles" placeholder="{}" aria-label="{} {}">'
            '<button class="btn btn-sm btn-outline-primary">{}</button></form></details></td>',
            labels["correct"],
            labels["correct"],
            move.number,
            form,
            move.number,
            move.notation,
            labels["move"],
            move.number,
            move.rack,
            labels["rack"],
            labels["rack_optional"],
            move.number,
            labels["save"],
        )
    return format_html(
        '<tr class="{}" data-move="{}"><td>{}</td><td>{}</td><td>{}</td>'
        '<td class="small">{}{}{}</td><td class="text-end">{}</td>'
        '<td class="text-end fw-semibold">{}</td>{}</tr>',
        css,
        move.number,
        number,
        line.player_name,
        shown,
        words,
        warnings,
        problem_html,
        move.score,
        move.total,
        correction,
    )
