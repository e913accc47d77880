"""A pairing's explanation in the reader's words: which engine made it and why.

The engines (`pairing.core`) explain a pairing in codes and parameters
(`Explanation`); the round keeps them (`Round.pairing_explanation`, one dict per group) and
so does the history entry of the pairing. This module is the one place those codes become
sentences, for the pairing page and the history alike. A code it does not know (a newer
engine's, or an older entry's) is shown as it is rather than refused.

Django: translations only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from competition.models import Competition

#: The pairing systems by the names the engines and the history use.
SYSTEM_LABELS: dict[str, Any] = {
    "swiss": Competition.PairingSystem.SWISS.label,
    "round_robin": Competition.PairingSystem.ROUND_ROBIN.label,
    "king_of_the_hill": Competition.PairingSystem.KING_OF_THE_HILL.label,
    "random": Competition.PairingSystem.RANDOM.label,
    "by_rating": gettext_lazy("by rating"),
    "golfer": gettext_lazy("round robin at tables (nobody meets twice)"),
}

#: How an engine paired, with the parameters each text names.
METHOD_TEXTS: dict[str, Any] = {
    "optimal_matching": gettext_lazy(
        "one optimal matching of the whole field: as few repeats as possible first, then "
        "the smallest gaps in match points and board points"
    ),
    "berger": gettext_lazy(
        "round %(schedule_round)s of %(schedule_rounds)s of the Berger schedule"
    ),
    "standings_order": gettext_lazy("the standings in order, top first; repeats allowed"),
    "draw": gettext_lazy("drawn by lot (draw number %(seed)s)"),
    "slide": gettext_lazy("top half against bottom half, by %(order_by)s"),
    "fold": gettext_lazy("strongest against weakest, by %(order_by)s"),
    "adjacent": gettext_lazy("neighbours against each other, by %(order_by)s"),
    "exact": gettext_lazy(
        "every grouping tried: as few repeats as possible first, then the smallest spread "
        "in match points"
    ),
    "local_search": gettext_lazy(
        "grouped from the top of the standings, then improved by swapping players between "
        "tables: as few repeats as possible first, then the smallest spread in match points"
    ),
    "schedule": gettext_lazy(
        "round %(schedule_round)s of the schedule in which nobody meets twice"
    ),
    "search": gettext_lazy(
        "a round searched after the earlier ones, with as few repeats as possible"
    ),
}

ORDER_BY = {"rating": gettext_lazy("rating"), "seed": gettext_lazy("seed")}

#: The methods that put the fewest repeats first: a repeat they leave was unavoidable.
FEWEST_REPEATS = frozenset({"optimal_matching", "exact"})

BYE_TEXTS: dict[str, Any] = {
    "lowest_placed": gettext_lazy("Bye: %(name)s, the lowest placed."),
    "lowest_without_bye": gettext_lazy("Bye: %(name)s, the lowest placed without a bye so far."),
    "fewest_byes": gettext_lazy(
        "Bye: %(name)s, the lowest placed of those with the fewest byes (everyone has had one)."
    ),
    "schedule": gettext_lazy("Bye: %(name)s, by the schedule."),
}


def _method(code: str, params: Mapping[str, Any]) -> str:
    text = METHOD_TEXTS.get(code)
    if text is None:
        return code
    values = {**params, "order_by": ORDER_BY.get(params.get("order_by", ""), "")}
    try:
        return str(text) % values
    except (KeyError, TypeError, ValueError):
        return code


def _count(params: Mapping[str, Any], key: str) -> int:
    value = params.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def explanation_lines(
    explanations: Iterable[Mapping[str, Any]], name_of: Callable[[Any], str]
) -> list[str]:
    """Sentences for a round's stored explanations (one dict per group); `name_of` turns a
    `bye_to` (a player id, or in the history the name kept) into a name."""
    groups = [entry for entry in explanations if isinstance(entry, Mapping)]
    lines = []
    for entry in groups:
        stored = entry.get("params")
        params: Mapping[str, Any] = stored if isinstance(stored, Mapping) else {}
        system = str(entry.get("system", ""))
        method = str(entry.get("method", ""))
        made = _("System: %(system)s; %(method)s.") % {
            "system": SYSTEM_LABELS.get(system, system),
            "method": _method(method, params),
        }
        if entry.get("group"):
            made = _("Group %(group)s: %(text)s") % {"group": entry["group"], "text": made}
        lines.append(made)
        sizes = params.get("sizes")
        if isinstance(sizes, str) and sizes:
            lines.append(_("Tables of %(sizes)s players.") % {"sizes": sizes.replace("+", " + ")})
        lines += _repeat_lines(method, params)
        if floaters := _count(params, "floaters"):
            lines.append(
                ngettext(
                    "%(count)s pair has unequal match points.",
                    "%(count)s pairs have unequal match points.",
                    floaters,
                )
                % {"count": floaters}
            )
        reason = params.get("bye_reason")
        if params.get("bye_to") is not None and reason in BYE_TEXTS:
            lines.append(str(BYE_TEXTS[reason]) % {"name": name_of(params["bye_to"])})
    return lines


def _repeat_lines(method: str, params: Mapping[str, Any]) -> list[str]:
    if "repeats_left" not in params:
        return []
    left, avoided = _count(params, "repeats_left"), _count(params, "repeats_avoided")
    lines = []
    if avoided:
        lines.append(
            ngettext(
                "Straight down the standings %(count)s pair would have met again; "
                "this pairing avoids that.",
                "Straight down the standings %(count)s pairs would have met again; "
                "this pairing avoids that.",
                avoided,
            )
            % {"count": avoided}
        )
    if not left:
        lines.append(_("Nobody meets an earlier opponent again."))
    elif method in FEWEST_REPEATS:
        lines.append(
            ngettext(
                "%(count)s pair meets again: no pairing of this field could avoid it.",
                "%(count)s pairs meet again: no pairing of this field could avoid them.",
                left,
            )
            % {"count": left}
        )
    else:
        lines.append(
            ngettext("%(count)s pair meets again.", "%(count)s pairs meet again.", left)
            % {"count": left}
        )
    return lines


def explanation_text(value: Any, reading: Any) -> str:
    """The history's reading of a pairing's explanation (its bye kept by name)."""
    if not isinstance(value, list):
        return str(value)
    return " ".join(explanation_lines(value, str))
