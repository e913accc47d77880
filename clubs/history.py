"""One history for the whole club: who changed what, when, what it was before and after, why.

Only services write here, through `history_record`, inside the transaction of the change
they record, so a change and its history entry are saved together or not at all. Rows are
never changed or deleted (`HistoryEntry` refuses both). An entry stores codes and values,
never sentences: the page renders them in the reader's language.

`clubs` knows nothing of competitions or games, so those are referred to by plain ids and
a label (the names as they were): the entry outlives whatever it describes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class HistoryAction(models.TextChoices):
    """What was done. The code is stored; the label is shown."""

    RESULT_ENTER = "result.enter", _("result entered")
    RESULT_CORRECT = "result.correct", _("result corrected")
    RESULT_CONFIRM = "result.confirm", _("result confirmed")
    RESULT_DISPUTE = "result.dispute", _("result disputed")
    RESULT_OVERRIDE = "result.override", _("result decided by the secretary")
    MOVE_ADD = "move.add", _("move entered")
    MOVE_CORRECT = "move.correct", _("move corrected")
    MOVE_UNDO = "move.undo", _("move taken back")
    MOVES_IMPORT = "moves.import", _("moves read from a GCG file")
    GAME_STARTER = "game.starter", _("starting player chosen")
    CLOCK_START = "clock.start", _("clock started")
    CLOCK_PAUSE = "clock.pause", _("clock stopped for a dispute")
    CLOCK_RESUME = "clock.resume", _("clock running again")
    CLOCK_FLAG = "clock.flag", _("flag fell on the clock")
    PAIRING_GENERATE = "pairing.generate", _("pairing made")
    PAIRING_SWAP = "pairing.swap", _("players swapped")
    PAIRING_PUBLISH = "pairing.publish", _("pairing published")
    PAIRING_CLEAR = "pairing.clear", _("pairing cleared")
    PAIRING_UNDO = "pairing.undo", _("pairing withdrawn")
    PAIRING_LATE = "pairing.late", _("late player added to the pairing")
    ROUND_CREATE = "round.create", _("round added")
    ROUND_STATUS = "round.status", _("round status changed")
    ROUND_REOPEN = "round.reopen", _("round reopened")
    ROUND_ATTENDANCE = "round.attendance", _("attendance changed")
    ROUND_DELETE = "round.delete", _("round deleted")
    ENTRANT_ADD = "entrant.add", _("player entered")
    ENTRANT_WITHDRAW = "entrant.withdraw", _("player withdrawn")
    ENTRANT_REINSTATE = "entrant.reinstate", _("player reinstated")
    ENTRANT_GROUP = "entrant.group", _("group changed")
    GROUP_CREATE = "group.create", _("group added")
    COMPETITION_CREATE = "competition.create", _("competition created")
    COMPETITION_SETTINGS = "competition.settings", _("settings changed")
    COMPETITION_ARCHIVE = "competition.archive", _("competition archived")
    RESULTS_IMPORT = "import.csv", _("results imported from CSV")
    TSH_IMPORT = "import.tsh", _("competition imported from TSH")
    PLAYER_INVITE = "player.invite", _("player invited to make an account")
    ACCOUNT_CREATE = "account.create", _("account made from an invitation")
    CLUB_CHANGE = "club.change", _("club details changed")
    CLUB_SIGNUP = "club.signup", _("club signed up")
    PLAYER_INVITE_MAIL = "player.invite_mail", _("invitation mailed to a player")
    ACCOUNT_EMAIL = "account.email", _("e-mail address of an account changed")
    PLAYER_CHANGE = "player.change", _("player details changed")
    PLAYER_CALENDAR = "player.calendar", _("address of the player's calendar renewed")
    PLAYER_NOTIFICATIONS = "player.notifications", _("player's choice of notifications changed")
    PLAYER_DELETE = "player.delete", _("player deleted")
    PLAYER_ERASE = "player.erase", _("personal data erased")
    MEMBERSHIP_ADD = "membership.add", _("member added to the club")
    MEMBERSHIP_ROLE = "membership.role", _("role in the club changed")
    MEMBERSHIP_REMOVE = "membership.remove", _("member removed from the club")
    MEMBERSHIP_DETAILS = "membership.details", _("member's club details changed")
    PERSON_MERGE = "person.merge", _("two records of one person merged")
    PERSON_UNMERGE = "person.unmerge", _("merge of two records undone")
    COMPETITION_DELETE = "competition.delete", _("competition deleted")
    DUPLICATE_EVENING = "duplicate.evening", _("duplicate evening started")
    DUPLICATE_DRAW = "duplicate.draw", _("duplicate turn drawn")
    DUPLICATE_TOP = "duplicate.top", _("top put on the board")
    DUPLICATE_REDO = "duplicate.redo", _("duplicate turn played again")
    DUPLICATE_ADD_TIME = "duplicate.add_time", _("time added to a duplicate turn")
    DUPLICATE_CREATE = "duplicate.create", _("duplicate competition created")
    DUPLICATE_SETTINGS = "duplicate.settings", _("duplicate settings changed")
    DUPLICATE_ARCHIVE = "duplicate.archive", _("duplicate competition archived")
    PARTICIPANT_ADD = "participant.add", _("player entered in duplicate")
    PARTICIPANT_WITHDRAW = "participant.withdraw", _("player withdrawn from duplicate")
    PARTICIPANT_REINSTATE = "participant.reinstate", _("player reinstated in duplicate")
    SLIP_SUBMIT = "slip.submit", _("slip handed in")
    SLIP_CORRECT = "slip.correct", _("slip corrected")
    SLIP_ACCEPT_LATE = "slip.accept_late", _("late slip accepted")
    SLIP_VOID = "slip.void", _("slip void: its turn was played again")
    SLIP_CONFLICT = "slip.conflict", _("slip typed again differently")
    SLIP_CONFLICT_RESOLVE = "slip.conflict_resolve", _("slip conflict resolved")
    PARTICIPANT_TABLE = "participant.table", _("player's table set")
    ARCHIVE_DOWNLOAD = "archive.download", _("club archive downloaded")
    ENTRANT_REMOVE = "entrant.remove", _("player taken out of the competition")
    PARTICIPANT_REMOVE = "participant.remove", _("player taken out of the duplicate")
    PRESENCE_SET = "presence.set", _("presence at a duplicate evening recorded")
    # Open events (events/): the organiser's history, and the history of an entry's club.
    EVENT_CREATE = "event.create", _("event created")
    EVENT_SETTINGS = "event.settings", _("event settings changed")
    EVENT_DIRECTORS = "event.directors", _("event directors chosen")
    EVENT_JURY = "event.jury", _("event jury chosen")
    EVENT_ENTRY = "event.entry", _("player entered in an event")
    EVENT_WITHDRAW = "event.withdraw", _("entry in an event withdrawn")
    # The operator of a hosted Bordpunt (hosting/): actions above the club.
    OPERATOR_APPROVE = "operator.approve", _("club approved by the operator")
    OPERATOR_SUSPEND = "operator.suspend", _("club suspended by the operator")
    OPERATOR_REACTIVATE = "operator.reactivate", _("club reactivated by the operator")
    OPERATOR_REMOVE = "operator.remove", _("club removed by the operator")
    OPERATOR_ACT_START = "operator.act_start", _("operator started acting for the club")
    OPERATOR_ACT_STOP = "operator.act_stop", _("operator stopped acting for the club")
    # The federation's ranking (ranking/).
    SEASON_CREATE = "season.create", _("season of the ranking created")
    SEASON_SETTINGS = "season.settings", _("ranking rules of the season changed")
    RANKING_PUBLISH = "ranking.publish", _("results of a ranked game published")
    RANKING_WITHDRAW = "ranking.withdraw", _("event taken out of the ranking")
    # A federation's ranking (ranking/).
    RANKING_IMPORT = "ranking.import", _("event's results imported from a results file")
    RANKING_OFFICIAL = "ranking.official", _("season ranking published as an official version")


class HistoryReason(models.TextChoices):
    """Why a service changed something by itself; what a person typed stays in `reason`."""

    FROM_MOVES = "from_moves", _("from the moves")
    CSV_IMPORT = "csv_import", _("imported from CSV")
    TSH_IMPORT = "tsh_import", _("imported from TSH")
    FROM_RESULTS = "from_results", _("follows from the results")
    TURN_REDO = "turn_redo", _("its duplicate turn was played again")
    ERASE_OWN_REQUEST = "erase_own", _("at the person's own request")
    ERASE_CLUB_REQUEST = "erase_club", _("at the person's request, through the club's secretary")
    ERASE_RETENTION = "erase_retention", _("the club's retention period for former members ended")


#: The labels of the keys that `before` and `after` use, for the history pages.
FIELD_LABELS: dict[str, Any] = {
    "outcome": _("outcome"),
    "winner": _("winner"),
    "score_a": _("score player 1"),
    "score_b": _("score player 2"),
    "scores": _("scores"),
    "flag_fell": _("flag fell"),
    "forfeited": _("forfeit"),
    "confirmed_by": _("confirmed by"),
    "status": _("status"),
    "notation": _("move"),
    "rack": _("rack"),
    "moves": _("moves"),
    "starter": _("starts"),
    "pairings": _("pairing"),
    "present": _("present"),
    "absent": _("absent"),
    "group": _("group"),
    "withdrawn_after_round": _("withdrawn after round"),
    "withdrawn_from_evening": _("withdrawn from evening"),
    "name": _("name"),
    "players_created": _("new players"),
    "entrants_added": _("entered"),
    "rounds_created": _("new rounds"),
    "rounds_finished": _("rounds finished"),
    "rounds_published": _("rounds published"),
    "games_added": _("games added"),
    "results": _("results"),
    "games": _("games"),
    "rounds": _("rounds"),
    "players": _("players"),
    "number": _("number"),
    "date": _("date"),
    "system": _("pairing system"),
    "confirmation": _("confirmation"),
    "entered_by_player": _("entered by"),
    "username": _("account"),
    "valid_until": _("valid until"),
    "slug": _("short name"),
    "city": _("city"),
    "slip_notation": _("slip notation"),
    "word_list": _("word list"),
    "former_member_retention_months": _("keep former members' data (months)"),
    "federation_number": _("federation number"),
    "rating": _("rating"),
    "role": _("role"),
    "member_number": _("member number"),
    "joined": _("member since"),
    "note": _("note"),
    "rows_moved": _("rows moved"),
    "email": _("e-mail address"),
    "club_status": _("club status"),
    "archive_downloaded_at": _("archive downloaded"),
    "player": _("player"),
    "club": _("club"),
    "divisions": _("divisions"),
    "directors": _("event directors"),
    "jury": _("jury"),
    "season": _("season"),
}


def _who(by: Any) -> tuple[Any, str]:
    if by is None or not getattr(by, "is_authenticated", False):
        return None, ""
    return by, by.get_username()


def history_record(
    *,
    club_id: int | None,
    by: Any,
    action: str,
    object_type: str,
    object_id: int | None = None,
    label: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    reason_code: str = "",
    competition_id: int | None = None,
    duplicate_id: int | None = None,
    round_number: int | None = None,
    game_id: int | None = None,
    at: datetime | None = None,
):
    """Write one history entry; call it inside the transaction of the change it records.

    `before` and `after` are JSON values (usually dicts of what changed); `label` names the
    object as it is now ("Ronde 3, tafel 2: An – Bert"), so the entry reads well after the
    object is gone. `reason` is what a person typed; `reason_code` a `HistoryReason`.
    `club_id` is None only for the operator's removal of a club: the club is gone, the
    entry names it in its label and keeps its old id as `object_id` (as the operator's
    earlier entries about it do once it is gone: `history_forget_club`).
    """
    from clubs.models import HistoryEntry

    user, name = _who(by)
    return HistoryEntry.objects.create(
        club_id=club_id,
        at=at or timezone.now(),
        by=user,
        by_name=name,
        action=action,
        object_type=object_type,
        object_id=object_id,
        object_label=label[:200],
        competition_id=competition_id,
        duplicate_id=duplicate_id,
        round_number=round_number,
        game_id=game_id,
        before=before,
        after=after,
        reason=reason.strip(),
        reason_code=reason_code,
    )


def player_history_record(
    player: Any, *, by: Any, action: str, before: Any = None, after: Any = None, at=None
) -> None:
    """A change of a player (by the secretary, or by the person: an address, their
    calendar's address, their notifications), kept in the history of each club the player
    is a member of: a player's history is their clubs'. A person in no club has none."""
    from clubs.models import Membership

    for club_id in Membership.objects.filter(player=player).values_list("club_id", flat=True):
        history_record(
            club_id=club_id,
            by=by,
            action=action,
            object_type="player",
            object_id=player.pk,
            label=player.name,
            before=before,
            after=after,
            at=at,
        )


#: What the operator did about a club, and the downloads of its archive that its removal
#: rests on: kept when the club is removed (`history_forget_club`), with its name (`label`)
#: and its number (`object_id`), as the removal's own entry.
OPERATOR_KEPT = models.Q(action__startswith="operator.") | models.Q(
    action=HistoryAction.ARCHIVE_DOWNLOAD
)


def history_forget_club(*, club_id: int) -> int:
    """Delete a club's history, the one way history goes: the operator removes the club
    (`hosting.services.club_remove`) only after its archive, history included, was downloaded.
    The operator's own entries about it (`OPERATOR_KEPT`) outlive it, without the club: each
    names it by its name and number. Call it inside the removal's transaction. Returns how
    many entries went."""
    from clubs.models import HistoryEntry

    entries = HistoryEntry.objects.filter(club_id=club_id)
    kept = entries.filter(OPERATOR_KEPT)
    # The queryset's own update() and delete() refuse always; this is the exception they guard.
    models.QuerySet.update(kept, club=None)
    forgotten = entries.exclude(OPERATOR_KEPT)
    count = forgotten.count()
    models.QuerySet.delete(forgotten)
    return count
