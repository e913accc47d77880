"""One person across clubs: adding a member (a federation number already known links the
person), a club's own details of its member, and merging two records of one person, with
its undo.

A merge re-points every relation to `clubs.Player` that Django knows (walked from the
model's meta, hidden ones included, so a relation added later moves too) and keeps a
`PersonMerge` with exactly what moved; `persons_unmerge` puts exactly that back. Two
records in the same competition, game or event (a unique constraint of the relation would
then hold the person twice) are refused, and so is the database's own refusal of any
other constraint: nothing is half merged.

Django: services (writes inside `transaction.atomic`, a history entry for every change).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.apps import apps
from django.core import serializers
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock, row_lock
from clubs.models import Club, Membership, Player
from clubs.names import NUMBER_CLAIMED, name_key
from clubs.permissions import can_manage_club
from clubs.signals import player_changed
from persons.models import PersonMerge
from persons.permissions import may_merge

#: The person's own fields a merge completes on the kept record from the other.
PERSON_FIELDS = ("federation_number", "user", "rating", "rating_deviation")
#: Rows of the other record that duplicate one of the kept record's are joined, not
#: refused: a person may be a member of a club under both records.
JOINED = "clubs.membership"
MEMBERSHIP_DETAILS = ("member_number", "joined", "note")


class PersonsError(Exception):
    """A refusal with its message for the page; `forbidden` when it is a 403."""

    def __init__(self, message: Any, *, forbidden: bool = False) -> None:
        super().__init__(str(message))
        self.message = message
        self.forbidden = forbidden


def _refuse_unless_manager(by: Any, club: Club) -> None:
    """`by=None` is a caller acting for no one (a command, a test's setup)."""
    if by is not None and not can_manage_club(by, club):
        raise PersonsError(_("Only the club's secretaries may do this."), forbidden=True)


def _checked_text(value: str, field: str, model: type[models.Model]) -> str:
    value = " ".join(value.split())
    try:
        model._meta.get_field(field).clean(value, None)  # type: ignore[union-attr]
    except ValidationError as error:
        raise PersonsError(error.messages[0]) from None
    return value


@transaction.atomic
def member_add(
    *,
    club: Club,
    name: str,
    federation_number: str = "",
    member_number: str = "",
    joined: datetime.date | None = None,
    note: str = "",
    by: Any,
) -> tuple[Membership, bool]:
    """Make a person a member of `club`: the person the federation number names when the
    name is theirs (a new membership; True), else a new person (False). A known number
    under another name is refused (`NUMBER_CLAIMED`) and nothing changes."""
    _refuse_unless_manager(by, club)
    if not name.split():
        raise PersonsError(_("A player needs a name."))
    name = _checked_text(name, "name", Player)
    number = _checked_text(federation_number, "federation_number", Player)
    details = {
        "member_number": _checked_text(member_number, "member_number", Membership),
        "joined": joined,
        "note": _checked_text(note, "note", Membership),
    }
    club_lock(club.pk)
    if number:
        try:
            with transaction.atomic():  # a savepoint: the same number added at this moment
                player = Player.objects.create(name=name, federation_number=number)
        except IntegrityError:
            # Another record has it (committed, or committed while this insert waited).
            return _member_link(club=club, name=name, number=number, details=details, by=by)
        linked = False
    else:
        player = Player.objects.create(name=name)
        linked = False
    membership = Membership.objects.create(club=club, player=player, **details)
    _record_membership(membership, by=by, after={"name": name, "federation_number": number})
    return membership, linked


def _member_link(
    *, club: Club, name: str, number: str, details: dict[str, Any], by: Any
) -> tuple[Membership, bool]:
    person = row_lock(Player.objects.filter(federation_number=number)).first()
    if person is None or person.erased_at is not None or name_key(person.name) != name_key(name):
        raise PersonsError(NUMBER_CLAIMED % {"number": number})
    if Membership.objects.filter(club=club, player=person).exists():
        raise PersonsError(_("%(name)s is already a member of the club.") % {"name": person.name})
    membership = Membership.objects.create(club=club, player=person, **details)
    _record_membership(membership, by=by, after={"name": person.name, "federation_number": number})
    return membership, True


def _record_membership(membership: Membership, *, by: Any, after: dict[str, Any]) -> None:
    after = {"role": membership.role, **after}
    after.update(
        {key: getattr(membership, key) for key in MEMBERSHIP_DETAILS if getattr(membership, key)}
    )
    history_record(
        club_id=membership.club_id,
        by=by,
        action=HistoryAction.MEMBERSHIP_ADD,
        object_type="player",
        object_id=membership.player_id,
        label=membership.player.name,
        after=after,
    )


@transaction.atomic
def membership_details_save(
    *,
    membership: Membership,
    member_number: str,
    joined: datetime.date | None,
    note: str,
    by: Any,
) -> Membership:
    """The club's own details of its member: its secretary's alone, kept in its history."""
    club = Club.objects.get(pk=membership.club_id)
    _refuse_unless_manager(by, club)
    stored = row_lock(Membership.objects.filter(pk=membership.pk)).get()
    new = {
        "member_number": _checked_text(member_number, "member_number", Membership),
        "joined": joined,
        "note": _checked_text(note, "note", Membership),
    }
    before = {key: getattr(stored, key) for key in MEMBERSHIP_DETAILS}
    changed = [key for key in MEMBERSHIP_DETAILS if before[key] != new[key]]
    if changed:
        for key in changed:
            setattr(stored, key, new[key])
        stored.save(update_fields=changed)
        history_record(
            club_id=stored.club_id,
            by=by,
            action=HistoryAction.MEMBERSHIP_DETAILS,
            object_type="player",
            object_id=stored.player_id,
            label=stored.player.name,
            before={key: before[key] for key in changed},
            after={key: new[key] for key in changed},
        )
    return stored


# --- merging two records of one person -------------------------------------------------


def player_relations() -> list[Any]:
    """Every foreign key (and one-to-one) to `Player`, hidden ones included, but the merge
    record's own. Many-to-many relations are walked through their tables' keys."""
    found = []
    for relation in Player._meta.get_fields(include_hidden=True):
        if not relation.auto_created or relation.concrete or relation.many_to_many:
            continue
        field = relation.field  # type: ignore[union-attr]
        if field.model is PersonMerge:
            continue
        found.append(field)
    return found


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _unique_sets(field: models.ForeignKey) -> list[tuple[tuple[str, ...], models.Q | None]]:
    """The unique sets of the relation's model that hold this key (its own `unique` too)."""
    meta = field.model._meta
    sets: list[tuple[tuple[str, ...], models.Q | None]] = []
    for names in meta.unique_together:
        if field.name in names:
            sets.append((tuple(names), None))
    for constraint in meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and field.name in constraint.fields:
            sets.append((tuple(constraint.fields), constraint.condition))
    if field.unique:
        sets.append(((field.name,), None))
    return sets


def _clashes(field: models.ForeignKey, keep: Player, other: Player) -> list[str]:
    """Where both records hold a row that a unique set allows the person once: each as
    "what: where" (the rows' other fields), in the reader's language."""
    model = field.model
    found: list[str] = []
    for names, condition in _unique_sets(field):
        rest = [name for name in names if name != field.name]
        rows = model._base_manager.filter(**{f"{field.name}__in": [keep.pk, other.pk]})
        if condition is not None:
            rows = rows.filter(condition)
        held: dict[int, set[tuple[Any, ...]]] = {keep.pk: set(), other.pk: set()}
        for owner, *values in rows.values_list(field.attname, *rest):
            if None not in values:  # a NULL is never equal to another in a unique set
                held[owner].add(tuple(values))
        for values in sorted(held[keep.pk] & held[other.pk], key=repr)[:5]:
            row = model._base_manager.filter(
                **{field.name: keep}, **dict(zip(rest, values, strict=True))
            )[0]
            where = ", ".join(str(getattr(row, name)) for name in rest)
            found.append(f"{capfirst(model._meta.verbose_name)}: {where}")
    return found


def _attname(name: str) -> str:
    """The column's name of a field of `Player` (`user_id` for `user`)."""
    return Player._meta.get_field(name).attname  # type: ignore[union-attr]


def _values(player: Player) -> dict[str, Any]:
    return {_attname(name): getattr(player, _attname(name)) for name in PERSON_FIELDS}


def _locked_pair(keep_id: int, other_id: int) -> tuple[Player, Player]:
    """Both records, locked in id order (two merges of the same pair wait for each other)."""
    found = {
        player.pk: player
        for player in row_lock(Player.objects.filter(pk__in=[keep_id, other_id]).order_by("pk"))
    }
    return found[keep_id], found[other_id]


def _clubs_of(*players: Player) -> list[int]:
    return sorted(
        set(Membership.objects.filter(player__in=players).values_list("club_id", flat=True))
    )


def _merge_record(
    merge: PersonMerge, *, clubs: list[int], action: str, by: Any, reason: str, moved: int
) -> None:
    keep, other = merge.keep, merge.other
    for club_id in clubs:
        history_record(
            club_id=club_id,
            by=by,
            action=action,
            object_type="player",
            object_id=keep.pk,
            label=f"{keep.name} ← {other.name}",
            before={
                "name": other.name,
                "federation_number": merge.moved["fields"]["other"].get("federation_number"),
            },
            after={"name": keep.name, "rows_moved": moved},
            reason=reason,
        )


@transaction.atomic
def persons_merge(*, keep: Player, other: Player, by: Any, reason: str = "") -> PersonMerge:
    """Merge `other` into `keep`: every row of `other` points to `keep` after, its
    memberships of a club `keep` is a member of too are joined into `keep`'s, and `keep`
    takes the federation number, account and start rating it lacks. Refused, with nothing
    changed, when the two are in the same competition, game or event, have different
    federation numbers or two accounts."""
    if keep.pk == other.pk:
        raise PersonsError(_("A record cannot be merged with itself."))
    keep, other = _locked_pair(keep.pk, other.pk)
    if by is not None and not _may_merge_now(by, keep, other):
        raise PersonsError(
            _(
                "Only staff, a federation official or a secretary of a club both records "
                "are members of may merge them."
            ),
            forbidden=True,
        )
    _refuse_unmergeable(keep, other)
    clashes = [
        clash
        for field in player_relations()
        if _label(field.model) != JOINED
        for clash in _clashes(field, keep, other)
    ]
    if clashes:
        raise PersonsError(
            _(
                "Both records take part in the same competition, game or event, so they "
                "cannot be one person: %(where)s."
            )
            % {"where": "; ".join(clashes[:5])}
        )
    clubs = _clubs_of(keep, other)
    moved: dict[str, Any] = {
        "rows": [],
        "removed": [],
        "memberships": [],
        "fields": {"keep": _values(keep), "other": _values(other)},
        "other_clubs": _clubs_of(other),
    }
    try:
        with transaction.atomic():  # a constraint the walk did not foresee: a clean refusal
            _join_memberships(keep, other, moved)
            for field in player_relations():
                rows = field.model._base_manager.filter(**{field.name: other})
                pks = list(rows.values_list("pk", flat=True))
                if pks:
                    field.model._base_manager.filter(pk__in=pks).update(**{field.name: keep})
                    moved["rows"].append(
                        {"model": _label(field.model), "field": field.name, "pks": pks}
                    )
            _complete_fields(keep, other)
    except IntegrityError:
        raise PersonsError(
            _("The two records cannot be merged: the database refuses one person in both.")
        ) from None
    merge = PersonMerge.objects.create(
        keep=keep,
        other=other,
        at=timezone.now(),
        by=by if getattr(by, "is_authenticated", False) else None,
        by_name=by.get_username() if getattr(by, "is_authenticated", False) else "",
        reason=reason.strip(),
        moved=moved,
    )
    count = sum(len(row["pks"]) for row in moved["rows"]) + len(moved["removed"])
    _merge_record(
        merge, clubs=clubs, action=HistoryAction.PERSON_MERGE, by=by, reason=reason, moved=count
    )
    player_changed.send(sender=Player, player_id=keep.pk)
    return merge


def _may_merge_now(by: Any, keep: Player, other: Player) -> bool:
    """`may_merge`, with a record already merged into another judged by the clubs it had
    before (its memberships went to the record it was merged into). So the second of two
    merges of one person, sent at the same moment or a moment later, is told that the
    record is merged already, not refused as if its secretary had no say over it."""
    merged = {
        merge.other_id: merge.moved.get("other_clubs", [])
        for merge in PersonMerge.objects.filter(other__in=[keep, other], undone_at__isnull=True)
    }
    if other.pk in merged:
        return may_merge(by, keep, other, other_clubs=merged[other.pk])
    if keep.pk in merged:
        return may_merge(by, other, keep, other_clubs=merged[keep.pk])
    return may_merge(by, keep, other)


def _refuse_unmergeable(keep: Player, other: Player) -> None:
    if PersonMerge.objects.filter(other__in=[keep, other], undone_at__isnull=True).exists():
        raise PersonsError(_("One of the records is already merged into another."))
    if keep.erased_at is not None or other.erased_at is not None:
        raise PersonsError(_("An erased record cannot be merged."))
    numbers = {keep.federation_number, other.federation_number} - {None, ""}
    if len(numbers) > 1:
        raise PersonsError(
            _("The two records have different federation numbers: they are two persons.")
        )
    if keep.user_id is not None and other.user_id is not None:
        raise PersonsError(
            _(
                "Both records have an account. The person keeps one: ask them which, and "
                "remove the other account's link first."
            )
        )


def _join_memberships(keep: Player, other: Player, moved: dict[str, Any]) -> None:
    """A club both records are members of keeps `keep`'s membership, with the higher role
    and the details it lacks from `other`'s; `other`'s is removed (and kept in `moved`)."""
    kept = {m.club_id: m for m in row_lock(Membership.objects.filter(player=keep))}
    for membership in row_lock(Membership.objects.filter(player=other, club_id__in=list(kept))):
        mine = kept[membership.club_id]
        before = {key: getattr(mine, key) for key in ("role", *MEMBERSHIP_DETAILS)}
        if membership.role == Membership.Role.SECRETARY:
            mine.role = Membership.Role.SECRETARY
        for key in MEMBERSHIP_DETAILS:
            if not getattr(mine, key) and getattr(membership, key):
                setattr(mine, key, getattr(membership, key))
        mine.save()
        moved["memberships"].append({"pk": mine.pk, "before": before})
        moved["removed"].append(serializers.serialize("python", [membership])[0])
        membership.delete()


def _complete_fields(keep: Player, other: Player) -> None:
    """`keep` takes what it lacks of the person's fields; unique ones leave `other` first."""
    taken = {}
    for name in PERSON_FIELDS:
        attname = _attname(name)
        if getattr(keep, attname) in (None, "") and getattr(other, attname) not in (None, ""):
            taken[attname] = getattr(other, attname)
    if not taken:
        return
    for attname in taken:
        if attname in ("federation_number", "user_id"):
            setattr(other, attname, None)
    other.save()
    for attname, value in taken.items():
        setattr(keep, attname, value)
    keep.save()


@transaction.atomic
def persons_unmerge(*, merge: PersonMerge, by: Any, reason: str = "") -> PersonMerge:
    """Undo a merge: the rows that moved (those still there) point to `other` again, the
    removed memberships come back, both records' fields and the joined memberships'
    details are as before. Refused when a later merge took `keep` into a third record."""
    keep, other = _locked_pair(merge.keep_id, merge.other_id)
    merge = row_lock(PersonMerge.objects.filter(pk=merge.pk)).get()
    merge.keep, merge.other = keep, other
    if by is not None and not may_merge(
        by, keep, other, other_clubs=merge.moved.get("other_clubs", [])
    ):
        raise PersonsError(
            _(
                "Only staff, a federation official or a secretary of a club both records "
                "were members of may undo their merge."
            ),
            forbidden=True,
        )
    if merge.undone_at is not None:
        raise PersonsError(_("This merge is undone already."))
    if PersonMerge.objects.filter(other=keep, undone_at__isnull=True).exists():
        raise PersonsError(
            _("%(name)s was merged into another record since: undo that merge first.")
            % {"name": keep.name}
        )
    moved = merge.moved
    try:
        with transaction.atomic():
            _restore_fields(keep, other, moved["fields"])
            for row in moved["rows"]:
                model = apps.get_model(row["model"])
                model._base_manager.filter(pk__in=row["pks"], **{row["field"]: keep}).update(
                    **{row["field"]: other}
                )
            for saved in moved["removed"]:
                for restored in serializers.deserialize("python", [saved]):
                    restored.save()
            for joined in moved["memberships"]:
                Membership.objects.filter(pk=joined["pk"]).update(**joined["before"])
    except IntegrityError:
        raise PersonsError(
            _("The merge cannot be undone: the records have changed since in a way that clashes.")
        ) from None
    merge.undone_at = timezone.now()
    if getattr(by, "is_authenticated", False):
        merge.undone_by = by
        merge.undone_by_name = by.get_username()
    merge.save(update_fields=["undone_at", "undone_by", "undone_by_name"])
    count = sum(len(row["pks"]) for row in moved["rows"]) + len(moved["removed"])
    _merge_record(
        merge,
        clubs=_clubs_of(keep, other),
        action=HistoryAction.PERSON_UNMERGE,
        by=by,
        reason=reason,
        moved=count,
    )
    player_changed.send(sender=Player, player_id=keep.pk)
    player_changed.send(sender=Player, player_id=other.pk)
    return merge


def _restore_fields(keep: Player, other: Player, before: dict[str, dict[str, Any]]) -> None:
    """Each record's fields as before the merge: `keep` gives back what it took (when it
    still has it), then `other` has its own again."""
    for attname, value in before["keep"].items():
        if getattr(keep, attname) == before["other"].get(attname) and value != getattr(
            keep, attname
        ):
            setattr(keep, attname, value)
    keep.save()
    for attname, value in before["other"].items():
        setattr(other, attname, value)
    other.save()
