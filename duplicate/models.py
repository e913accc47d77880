"""A duplicate evening: its master game turn by turn, and every player's slip.

The master game is stored as what the spelleider did (the tiles drawn, the top chosen);
the board, the racks and the tops follow from those through `rules.duplicate`, so they
are never stored twice. Slips keep what the player wrote and claimed beside what the
engine made of it: the score, and the reason as a code when it scores 0.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from competition.models import Competition


class Evening(models.Model):
    """One duplicate evening of a competition: one master game."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="duplicate_evenings",
        verbose_name=_("competition"),
    )
    number = models.PositiveSmallIntegerField(_("evening"))
    date = models.DateField(_("date"), null=True, blank=True)
    #: A `rules.RULE_SETS` name: the board rules (rack, bingo bonus, word list).
    rules = models.CharField(_("rules"), max_length=20, default="standard")
    #: `rules.duplicate.DrawRules.to_dict()`; empty = the NTSV's.
    draw_rules = models.JSONField(_("draw rules"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("competition", "number")
        constraints = [
            models.UniqueConstraint(
                fields=("competition", "number"), name="duplicate_evening_number_once"
            )
        ]
        verbose_name = _("duplicate evening")
        verbose_name_plural = _("duplicate evenings")

    def __str__(self) -> str:
        return f"{self.competition} – {self.number}"


class Turn(models.Model):
    """One turn of the master game: drawn, then (once the top is chosen) closed."""

    evening = models.ForeignKey(
        Evening, on_delete=models.PROTECT, related_name="turns", verbose_name=_("evening")
    )
    number = models.PositiveSmallIntegerField(_("turn"))
    #: The tiles drawn this turn ("?" = blank); the rest of the rack was kept.
    drawn = models.CharField(_("drawn"), max_length=15)
    rack = models.CharField(_("rack"), max_length=15)
    #: The top put on the board, in the engine's notation; empty while the turn is open.
    top = models.CharField(_("top"), max_length=40, blank=True)
    top_score = models.PositiveIntegerField(_("top score"), null=True, blank=True)
    #: The sum of the tops up to and including this turn.
    total = models.PositiveIntegerField(_("sum of the tops"), null=True, blank=True)
    #: When the rack was announced: the room screen's countdown runs from here.
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)

    class Meta:
        ordering = ("evening", "number")
        constraints = [
            models.UniqueConstraint(fields=("evening", "number"), name="duplicate_turn_once"),
            models.CheckConstraint(
                condition=models.Q(top="") | models.Q(top_score__isnull=False),
                name="duplicate_top_has_score",
            ),
        ]
        verbose_name = _("duplicate turn")
        verbose_name_plural = _("duplicate turns")

    def __str__(self) -> str:
        return f"{self.evening}, {self.number}"

    @property
    def is_open(self) -> bool:
        return not self.top


class Slip(models.Model):
    """A player's play for one turn (*beurtbriefje*), scored by the engine."""

    turn = models.ForeignKey(
        Turn, on_delete=models.PROTECT, related_name="slips", verbose_name=_("turn")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="duplicate_slips", verbose_name=_("player")
    )
    #: What the player wrote, e.g. "8H WOORD".
    text = models.CharField(_("play"), max_length=60)
    claimed = models.PositiveIntegerField(_("claimed score"), null=True, blank=True)
    score = models.PositiveIntegerField(_("score"))
    #: Why it scores 0 (a `rules.MESSAGES` code), or empty.
    reason_code = models.CharField(_("reason"), max_length=40, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)
    #: The claimed score was not the real one: the real one counts.
    corrected = models.BooleanField(_("corrected"), default=False)
    is_top = models.BooleanField(_("top"), default=False)
    #: Handed in after the top was put on the board.
    late = models.BooleanField(_("late"), default=False)
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("turn", "player")
        constraints = [
            models.UniqueConstraint(fields=("turn", "player"), name="duplicate_slip_once")
        ]
        verbose_name = _("slip")
        verbose_name_plural = _("slips")

    def __str__(self) -> str:
        return f"{self.turn}: {self.text}"

    @property
    def reason_text(self) -> str:
        """Why it scores 0, in the reader's language (the row keeps the code)."""
        from games.rule_messages import describe

        return describe(self.reason_code, self.reason_params) if self.reason_code else ""
