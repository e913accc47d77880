"""Clubs, their players and who is secretary where. Knows nothing of competitions."""

from collections.abc import Collection
from typing import Any, Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Now
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, HistoryReason
from clubs.inputs import validate_plain_text
from clubs.names import CLUB_NAME_TAKEN, name_key
from clubs.slugs import validate_club_slug
from rules.board import Notation
from rules.ruleset import WORD_LIST_NAME


class RatingSystem(models.TextChoices):
    """The club's rating system (competition/core/ratings.py, docs/ratings.md)."""

    GLICKO2 = "glicko2", _("Glicko-2")
    ELO = "elo", _("Elo (NASPA style)")


class SlipNotation(models.TextChoices):
    """How the club's players write a position on a duplicate slip (`rules.board.Notation`):
    read in it, and every slip and top shown back in it."""

    ROWS_NUMBERED = Notation.ROWS_NUMBERED.value, _("Rows numbered (8H across, H8 down)")
    ROWS_LETTERED = Notation.ROWS_LETTERED.value, _("Rows lettered (H8 across, 8H down)")


#: A club's own word list's name (`rules.ruleset.WORD_LIST_NAME`): also its file's name.
validate_word_list_name = RegexValidator(
    rf"\A(?:{WORD_LIST_NAME.pattern})\Z",
    _("A word list's name: lowercase letters, digits and hyphens (at most 40)."),
)


class ClubStatus(models.TextChoices):
    """Where a club stands with the hosted service (hosting/): only an active club's
    secretaries and players write; a suspended club is read-only, its public pages say so."""

    ACTIVE = "active", _("active")
    PENDING = "pending", _("waiting for approval")
    SUSPENDED = "suspended", _("suspended")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    slug = models.SlugField(_("short name"), unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    members: "models.ManyToManyField[Player, Membership]" = models.ManyToManyField(
        "Player", through="Membership", related_name="clubs", verbose_name=_("members")
    )
    rating_system = models.CharField(
        _("rating system"), max_length=10, choices=RatingSystem, default=RatingSystem.GLICKO2
    )
    slip_notation = models.CharField(
        _("slip notation"),
        max_length=16,
        choices=SlipNotation,
        default=SlipNotation.ROWS_NUMBERED,
        help_text=_(
            "How players write the position on a duplicate slip. The row always comes first "
            "for a word across. Rows numbered (English, GCG): rows 1–15, columns A–O; a word "
            "across from row 8, column D is 8D, down from there D8. Rows lettered (French, "
            "FISF): rows A–O, columns 1–15; the same word across is H4, down 4H."
        ),
    )
    #: The club's own word list (clubs/word_lists.py), by name: new games and duplicate
    #: evenings play with it instead of the shipped list of their rules; empty: the shipped.
    word_list = models.CharField(
        _("word list"),
        max_length=40,
        blank=True,
        default="",
        db_default="",
        validators=[validate_word_list_name],
        help_text=_(
            "The club's own word list, built with `bordpunt lexicon`: new games and duplicate "
            "evenings check their words against it instead of the list of their rules. Games "
            "and evenings made before keep the list they were played with."
        ),
    )
    # Defaults in the database too: a server of the release before inserts clubs without
    # these columns (docs/deployment.md, "An upgrade while old servers run").
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=ClubStatus,
        default=ClubStatus.ACTIVE,
        db_default=ClubStatus.ACTIVE,
    )
    created_at = models.DateTimeField(
        _("created"), default=timezone.now, db_default=Now(), editable=False
    )
    # How long the club keeps a former member's data (privacy/retention.py): empty keeps it.
    former_member_retention_months = models.PositiveSmallIntegerField(
        _("keep former members' data (months)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(1200)],
        help_text=_(
            "Months after a member leaves the club before their account and personal data "
            "are erased (their results stay, under an anonymous name), unless they are a "
            "member of another club. Empty: kept until they ask for erasure."
        ),
    )
    #: When the club's archive was last downloaded (`archives.services.archive_downloaded`):
    #: the operator removes a club only after a download later than its last change.
    archive_downloaded_at = models.DateTimeField(
        _("archive downloaded"), null=True, blank=True, editable=False
    )
    #: A federation (the NTSV, the SBNL): organises events and keeps the seasons of a
    #: ranking (events/); its secretaries are its officials.
    is_federation = models.BooleanField(
        _("federation"), default=False, db_default=False, editable=False
    )
    #: The club's code at the federation: results files name the club by it.
    federation_code = models.CharField(
        _("federation code"), max_length=20, null=True, blank=True, unique=True
    )
    _stored_slug: str | None  # the short name and name as loaded (from_db), for clean()
    _stored_name: str | None

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        # The operator of a hosted Bordpunt (hosting/): above the clubs, not in any of them.
        permissions = [("operate_service", _("Can operate the hosted service"))]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club", kwargs={"club": self.slug})

    @property
    def notation(self) -> Notation:
        """The slip notation as the engine takes it."""
        return Notation(self.slip_notation)

    @classmethod
    def from_db(
        cls, db: str | None, field_names: Collection[str], values: Collection[Any], **kwargs: Any
    ) -> Self:
        club = super().from_db(db, field_names, values, **kwargs)
        club._stored_slug = club.__dict__.get("slug")
        club._stored_name = club.__dict__.get("name")
        return club

    def clean(self) -> None:
        """A short name a page of the site has, or a name that reads as another club's, is
        refused when taken, new or renamed to; a club that has one from before keeps it until
        it is renamed."""
        if self.slug != getattr(self, "_stored_slug", None):
            try:
                validate_club_slug(self.slug)
            except ValidationError as error:
                raise ValidationError({"slug": error}) from None
        if self.name != getattr(self, "_stored_name", None) and club_name_taken(
            self.name, other_than=self.pk
        ):
            raise ValidationError({"name": ValidationError(CLUB_NAME_TAKEN, code="taken")})


def club_name_taken(name: str, *, other_than: int | None = None) -> bool:
    """Whether a club (but `other_than`) has a name that reads as `name`: "Scrabbleclub-Alfa"
    and "scrabbleclub  alfa" are "Scrabbleclub Alfa" (clubs.names.name_key). Compared here,
    not in SQL: SQLite and PostgreSQL fold neither accents nor hyphens alike, and a service
    has hundreds of clubs, not millions."""
    key = name_key(name)
    clubs = Club.objects.all() if other_than is None else Club.objects.exclude(pk=other_than)
    names = clubs.values_list("name", flat=True)
    return any(name_key(other) == key for other in names.iterator())


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("user account"),
    )
    federation_number = models.CharField(
        _("federation number"), max_length=20, blank=True, null=True, unique=True
    )
    # A known start for the club's rating list (competition/ratings.py): the rating a player
    # brings (from the federation, another club), not a computed one; the computed rating
    # follows from the results and is never stored.
    rating = models.PositiveIntegerField(
        _("start rating"),
        null=True,
        blank=True,
        help_text=_("A known rating to start from; empty: 1500, like every new player."),
    )
    rating_deviation = models.PositiveSmallIntegerField(
        _("start deviation"),
        null=True,
        blank=True,
        validators=[MinValueValidator(30), MaxValueValidator(350)],
        help_text=_(
            "How sure the start rating is (Glicko-2), 30 to 350; empty: 350, as for a new player."
        ),
    )
    # One open invitation to make an account (clubs/accounts.py): only a keyed hash of its
    # code is kept, so the database (or a backup) does not give the code away.
    invite_code_hash = models.CharField(
        _("invitation code (hashed)"), max_length=64, blank=True, db_index=True, editable=False
    )
    invite_expires_at = models.DateTimeField(
        _("invitation valid until"), null=True, blank=True, editable=False
    )
    # The random part of the player's own calendar feed's secret address (clubs/calendars.py
    # keys it with the site's secret, so this value alone, in a backup or a club's archive,
    # does not give the address away). Renewed by the player (`player_calendar_renew`): the
    # old address is then a 404. Empty until the player asks for an address.
    calendar_key = models.CharField(
        _("calendar address key"),
        max_length=32,
        blank=True,
        default="",
        db_default="",
        editable=False,
    )
    # Set when the person's data was erased (privacy/erasure.py): the name is then the
    # neutral placeholder `erased_name(pk)`, the results stay.
    erased_at = models.DateTimeField(_("erased"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


def erased_name(player_id: int) -> str:
    """The name an erased player is shown under everywhere: no language, no data ("#12")."""
    return f"#{player_id}"


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("member")
        SECRETARY = "secretary", _("secretary")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role, default=Role.MEMBER)
    # The club's own details of its member (persons/, docs/persons.md): each club sees and
    # edits its own; the person's name and federation number are on `Player`, shared.
    member_number = models.CharField(
        _("member number"),
        max_length=20,
        blank=True,
        db_default="",
        validators=[validate_plain_text],
    )
    joined = models.DateField(_("member since"), null=True, blank=True)
    note = models.CharField(
        _("note"),
        max_length=500,
        blank=True,
        db_default="",
        validators=[validate_plain_text],
        help_text=_("Seen only by the club's secretaries."),
    )

    class Meta:
        ordering = ["club", "player__name"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_role_display()}, {self.club})"


class HistoryQuerySet(models.QuerySet["HistoryEntry"]):
    """History is kept: a query can read it but not change or delete it."""

    def update(self, **kwargs):
        raise PermissionError("History entries are never changed.")

    def delete(self):
        raise PermissionError("History entries are never deleted.")

    def erase_personal_data(self, changes: dict[int, dict[str, Any]]) -> None:
        """The one sanctioned change of the history: a person's data erased (AVG), by
        `privacy.erasure.player_erase` alone. `changes` maps an entry's id to its fields
        with the person's name, account and numbers taken out; what was done stays."""
        allowed = {"by", "by_name", "object_label", "before", "after", "reason"}
        for pk, fields in changes.items():
            if not fields.keys() <= allowed:
                raise PermissionError(f"Erasure changes only personal fields, not {fields}.")
            models.QuerySet.update(self.filter(pk=pk), **fields)


class HistoryEntry(models.Model):
    """One change a person made (or a service made for them): who, when, before, after, why.

    Written only by `clubs.history.history_record`; never changed, never deleted.
    """

    # Empty only on the operator's entries about a removed club, which name it by label and
    # `object_id` (`clubs.history.history_record`, `history_forget_club`).
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="history",
        verbose_name=_("club"),
    )
    at = models.DateTimeField(_("when"), db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    by_name = models.CharField(
        _("by (name)"),
        max_length=150,
        blank=True,
        help_text=_("The account name at the time, kept when the account goes."),
    )
    # A code of HistoryAction, without `choices`: a new action needs no migration.
    action = models.CharField(_("what"), max_length=40)
    object_type = models.CharField(_("object type"), max_length=20)
    object_id = models.PositiveBigIntegerField(_("object id"), null=True, blank=True)
    object_label = models.CharField(_("object"), max_length=200, blank=True)
    competition_id = models.PositiveBigIntegerField(
        _("competition id"), null=True, blank=True, db_index=True
    )
    #: The duplicate competition (`duplicate.DuplicateCompetition`) the entry belongs to:
    #: its ids are its own, so they are not kept in `competition_id`.
    duplicate_id = models.PositiveBigIntegerField(
        _("duplicate competition id"), null=True, blank=True, db_index=True
    )
    round_number = models.PositiveIntegerField(_("round"), null=True, blank=True)
    game_id = models.PositiveBigIntegerField(_("game id"), null=True, blank=True, db_index=True)
    before = models.JSONField(_("before"), null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(_("after"), null=True, blank=True, encoder=DjangoJSONEncoder)
    # A code of HistoryReason, without `choices` like `action`.
    reason_code = models.CharField(_("automatic reason"), max_length=20, blank=True)
    reason = models.TextField(_("reason"), blank=True, help_text=_("As the person typed it."))

    objects = HistoryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("history entry")
        verbose_name_plural = _("history")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_label}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise PermissionError("History entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("History entries are never deleted.")

    @property
    def reason_text(self) -> str:
        """The reason in the reader's language: the automatic one, then what was typed."""
        automatic = ""
        if self.reason_code:
            try:
                automatic = str(HistoryReason(self.reason_code).label)
            except ValueError:
                automatic = self.reason_code
        parts = [automatic, self.reason]
        return " · ".join(part for part in parts if part)

    @property
    def action_label(self) -> str:
        """What was done, in the reader's language (the code itself if it is unknown)."""
        try:
            return str(HistoryAction(self.action).label)
        except ValueError:
            return self.action

    @property
    def author(self) -> str:
        """Who did it: the account's name, or the one kept when the account is gone."""
        return self.by.get_username() if self.by is not None else self.by_name


class ThrottleScope(models.TextChoices):
    """What a throttle counts; each has its limit in `settings.THROTTLE_LIMITS`."""

    LOGIN_ACCOUNT = "login.account", _("wrong passwords for one username from one address")
    LOGIN_ADDRESS = "login.address", _("wrong passwords for any username from one address")
    INVITE_PLAYER = "invite.player", _("wrong codes on one player's link from one address")
    INVITE_ADDRESS = "invite.address", _("wrong invitation codes from one address")
    SIGNUP_EMAIL = "signup.email", _("sign-ups for one e-mail address")
    SIGNUP_ADDRESS = "signup.address", _("sign-ups from one address")
    MAIL_SENDER = "mail.sender", _("mails one account had sent")
    MAIL_RECIPIENT = "mail.recipient", _("mails to one e-mail address")


class Throttle(models.Model):
    """Failures counted under one key (clubs/throttle.py). In the database, not the cache,
    because several app servers share one database and the cache is per process. Deleting
    the row lifts the wait at once: that is how an admin unlocks someone."""

    scope = models.CharField(_("what is counted"), max_length=20, choices=ThrottleScope.choices)
    # The username as typed (case folded) or the player of the invitation link; "" when the
    # scope counts an address alone.
    subject = models.CharField(_("username or player"), max_length=150, blank=True)
    address = models.CharField(_("address"), max_length=64, blank=True)
    failures = models.PositiveIntegerField(_("failures"), default=0)
    last_failure_at = models.DateTimeField(_("last failure"))
    locked_until = models.DateTimeField(_("waits until"), null=True, blank=True)

    class Meta:
        ordering = ["-last_failure_at"]
        verbose_name = _("throttle")
        verbose_name_plural = _("throttles")
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "subject", "address"], name="throttle_one_row_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.subject} {self.address}".strip()


class Submission(models.Model):
    """A form's key, once what it sent was saved (clubs/submissions.py): a phone that sends
    its form again, after a lost answer or a lost connection, gets the answer of the first
    and nothing is saved twice. Kept a few days (pruned as new ones come)."""

    key = models.UUIDField(_("key"), unique=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    made = models.DateTimeField(_("saved"), db_index=True)
    kind = models.CharField(_("form"), max_length=20)
    # What it led to, for whoever reads the table: "game 12", "slip 40", "round 3".
    led_to = models.CharField(_("led to"), max_length=60, blank=True)
    # A digest of what the form said (`submission_sent`): the same key with other text is a
    # form changed after it was first sent, refused rather than answered as the first.
    digest = models.CharField(_("digest"), max_length=64, blank=True, default="", db_default="")

    class Meta:
        ordering = ["-made"]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"
