"""Every action the code can record reads as Dutch on the history page: no raw code, no
English field name, no Python value (issue 19, point 2).

The actions are collected from the source (every `HistoryAction.X` outside clubs/history.py),
so a new action without a sample here fails `test_every_recorded_action_has_a_sample`.
Each sample has the shape its service stores (see the service named beside it), rendered
through the history page's own template.
"""

import ast
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.template.loader import render_to_string
from django.utils import translation

from clubs.history import FIELD_LABELS, HistoryAction
from clubs.history_display import registered_choices
from clubs.models import HistoryEntry

ROOT = Path(__file__).resolve().parents[2]
#: Every app of ours (a new one is read without being added here), and config.
APPS = (
    *(app.label for app in apps.get_app_configs() if Path(app.path).parent == ROOT),
    "config",
)

GAME = {"object_type": "game", "game_id": 7, "object_label": "Ans de Vries – Bert Bakker"}
ROUND = {"object_type": "round", "object_label": "Voorjaar 2026 · 3", "round_number": 3}
COMPETITION = {"object_type": "competition", "object_label": "Voorjaar 2026"}
ENTRANT = {"object_type": "entrant", "object_label": "Cor Cornelissen"}
PLAYER = {"object_type": "player", "object_label": "Cor Cornelissen"}
EVENING = {"object_type": "duplicate_evening", "object_label": "Duplicate – 1"}
TURN = {"object_type": "duplicate_turn", "object_label": "Duplicate – 1, 3"}
SLIP = {"object_type": "duplicate_slip", "object_label": "Duplicate – 1, 3"}
CLUB = {"object_type": "club", "object_label": "De Goudse Letters"}
EVENT = {"object_type": "event", "object_label": "Gouds Open"}
DUPLICATE = {"object_type": "duplicate", "object_label": "Duplicate 2026"}
PARTICIPANT = {"object_type": "participant", "object_label": "Cor Cornelissen (Duplicate 2026)"}
DUPLICATE_SETTINGS = {
    "name": "Duplicate 2026",
    "slug": "duplicate-2026",
    "rules": "sbnl",
    "start_date": "2026-09-05",
    "best_evenings": None,
}

# Results as `games.services.TableResult.snapshot` stores them: scores in table order, the
# seats whose flag fell or who forfeited; a seat is its position.
RESULT_NONE = {"outcome": "", "scores": [None, None], "flag_fell": [], "forfeited": []}
RESULT = {"outcome": "normal", "scores": [412, 380], "flag_fell": [], "forfeited": []}
FLAG = {"outcome": "flag_fall", "scores": [301, 288], "flag_fell": [0], "forfeited": []}
STATE = {**RESULT, "confirmation": "provisional", "entered_by_player": 0, "confirmed_by": [0]}
PAIRINGS = [
    [1, ["Ans de Vries", "Bert Bakker"], "Ans de Vries"],
    [None, ["Cor Cornelissen", None], None],
]
MOVE = {"number": 3, "seat": 1, "notation": "8H WOORD", "rack": "DEORSTW"}
SETTINGS = {
    "name": "Voorjaar 2026",
    "slug": "voorjaar-2026",
    "kind": "club",
    "rules": "custom",
    "custom_rules": {
        "name": "Clubvariant",
        "rack_size": 8,
        "bingo_bonus": 0,
        "exchange_max_tiles": None,
        "end_adjustment": "none",
        "wrong_challenge": "lose_turn",
        "blank_swap_allowed": True,
        "lexicon": "gouds8",
        "end_scoreless_kind": "passes",
    },
    "start_date": "2026-06-13",
    "number_of_rounds": None,
    "pairing_system": "koth",
    "starters": "by_lot",
    "bye_match_points": 2,
    "bye_board_points": "average",
    "bye_board_points_fixed": 0,
    "forfeit_win_match_points": 2,
    "forfeit_win_board_points": 0,
    "ranking": "totals",
    "min_games": 0,
    "only_confirmed_results": False,
    "tiebreaks": ["spread", "head_to_head", "opponents_match_points", "sonneborn_berger"],
}

# action: (context, before, after, reason_code, a Dutch text the page must show)
SAMPLES = {
    # games/services.py _apply, games/moves.py _finish
    "result.enter": (
        GAME,
        RESULT_NONE,
        RESULT,
        "",
        "Ans de Vries 412 – 380 Bert Bakker, Ans de Vries wint",
    ),
    "result.correct": (GAME, RESULT, FLAG, "from_moves", "vlag van Ans de Vries gevallen"),
    # games/confirmation.py _confirm, _dispute, game_result_override
    "result.confirm": (
        GAME,
        STATE,
        {**STATE, "confirmation": "confirmed"},
        "",
        "voorlopig → bevestigd",
    ),
    "result.dispute": (
        GAME,
        STATE,
        {
            **STATE,
            "confirmation": "disputed",
            "counter_outcome": "normal",
            "counter_scores": [380, 412],
            "counter_flag_fell": [],
            "counter_forfeited": [],
            "counter_by": 1,
        },
        "",
        "Invoer van Bert Bakker",
    ),
    "result.override": (
        GAME,
        {
            **STATE,
            "confirmation": "disputed",
            "counter_result": {**RESULT, "scores": [412, 412], "by": 1},
        },
        {
            **RESULT,
            "scores": [412, 420],
            "confirmation": "confirmed",
            "entered_by_player": None,
            "confirmed_by": [0, 1],
        },
        "",
        "betwist → bevestigd",
    ),
    # games/moves.py move_add, move_undo, move_correct, game_set_starter, moves_import_gcg
    "move.add": (
        GAME,
        None,
        {**MOVE, "notation": "(challenge)", "rack": ""},
        "",
        "Bert Bakker: bezwaar: woord goed",
    ),
    "move.undo": (GAME, {**MOVE, "notation": "-"}, None, "", "Zet 3"),
    "move.correct": (GAME, MOVE, {**MOVE, "notation": "swap H8 K5"}, "", "blanco"),
    "game.starter": (GAME, {"starter": None}, {"starter": 1}, "", "Bert Bakker"),
    "clock.start": (GAME, None, {"left_ms": [1_500_000, 1_500_000]}, "", "25:00"),
    "clock.pause": (GAME, None, {"left_ms": [1_410_000, 1_455_500]}, "", "Bert Bakker 24:15"),
    "clock.resume": (GAME, None, {"left_ms": [1_410_000, 1_455_500]}, "", "23:30"),
    "clock.flag": (
        GAME,
        None,
        {"left_ms": [0, 312_000], "flag": 0, "flag_at_ms": 2_712_000},
        "",
        "45:12",
    ),
    "moves.import": (
        GAME,
        {"starter": 0, "moves": []},
        {
            "starter": 1,
            "moves": [
                {"number": 1, "seat": 1, "notation": "H8 zOEN", "rack": ""},
                {"number": 2, "seat": 0, "notation": "-ABC", "rack": "ABCEENR"},
                {"number": 3, "seat": 1, "notation": "--", "rack": ""},
                {"number": 4, "seat": 0, "notation": "-3", "rack": ""},
                {"number": 5, "seat": 1, "notation": "(time 2)", "rack": ""},
                {"number": 6, "seat": 0, "notation": "(flagfall)", "rack": ""},
                {"number": 7, "seat": 1, "notation": "(annulled)", "rack": ""},
                {"number": 8, "seat": 0, "notation": "(EI)", "rack": ""},
            ],
        },
        "",
        "bezwaar: woord fout",
    ),
    # competition/services/rounds.py
    "pairing.generate": (
        ROUND,
        {"pairings": [], "status": "draft"},
        {"pairings": PAIRINGS, "status": "draft", "system": "king_of_the_hill"},
        "",
        "tafel 1: Ans de Vries – Bert Bakker, Ans de Vries begint",
    ),
    "pairing.swap": (
        ROUND,
        {"pairings": PAIRINGS},
        {"pairings": PAIRINGS[::-1]},
        "",
        "vrije ronde: Cor",
    ),
    "pairing.publish": (
        ROUND,
        {"status": "draft"},
        {"status": "published", "pairings": PAIRINGS},
        "",
        "concept → gepubliceerd",
    ),
    "pairing.clear": (
        ROUND,
        {"pairings": PAIRINGS, "status": "published"},
        {"pairings": [], "status": "draft"},
        "",
        "Indeling",
    ),
    "pairing.undo": (
        ROUND,
        {"status": "published"},
        {"status": "draft", "pairings": PAIRINGS},
        "",
        "gepubliceerd → concept",
    ),
    "pairing.late": (
        ROUND,
        {"pairings": [[None, ["Cor Cornelissen", None], None]]},
        {
            "pairings": [[4, ["Cor Cornelissen", "Dirk Dijkstra"], None]],
            "present": ["Dirk Dijkstra"],
        },
        "",
        "Dirk Dijkstra",
    ),
    "round.create": (
        ROUND,
        None,
        {"number": 3, "date": "2026-06-13", "status": "draft"},
        "",
        "13 juni 2026",
    ),
    "round.status": (
        ROUND,
        {"status": "published"},
        {"status": "finished"},
        "from_results",
        "afgelopen",
    ),
    "round.reopen": (
        ROUND,
        {"status": "finished"},
        {"status": "published"},
        "",
        "afgelopen → gepubliceerd",
    ),
    "round.attendance": (
        ROUND,
        {"absent": []},
        {"absent": ["Ineke Jansen", "Oda Visser"]},
        "",
        "Ineke Jansen, Oda Visser",
    ),
    "round.delete": (
        ROUND,
        {
            "number": 3,
            "date": None,
            "status": "draft",
            "pairings": PAIRINGS,
            "absent": ["Oda Visser"],
        },
        None,
        "",
        "Oda Visser",
    ),
    # competition/services/entrants.py
    "entrant.add": (ENTRANT, None, {"joined_round": 2, "group": "A-groep"}, "", "A-groep"),
    "entrant.withdraw": (
        ENTRANT,
        {"withdrawn_from_round": None},
        {"withdrawn_from_round": 5},
        "",
        "5",
    ),
    "entrant.reinstate": (
        ENTRANT,
        {"withdrawn_from_round": 5},
        {"withdrawn_from_round": None},
        "",
        "5",
    ),
    "entrant.group": (ENTRANT, {"group": None}, {"group": "B-groep"}, "", "B-groep"),
    "group.create": (
        {"object_type": "group", "object_label": "B-groep"},
        None,
        {"name": "B-groep"},
        "",
        "B-groep",
    ),
    # competition/services/competitions.py
    "competition.create": (COMPETITION, None, SETTINGS, "", "op de stand (1–2, 3–4)"),
    "competition.settings": (
        COMPETITION,
        {"start_date": None, "only_confirmed_results": False, "tiebreaks": ["spread"]},
        {
            "start_date": "2026-06-13",
            "only_confirmed_results": True,
            "tiebreaks": ["wins", "spread"],
        },
        "",
        "13 juni 2026",
    ),
    "competition.archive": (COMPETITION, {"archived": False}, {"archived": True}, "", "nee → ja"),
    "competition.delete": (COMPETITION, SETTINGS, None, "", "Voorjaar 2026"),
    # duplicate/services/
    "duplicate.create": (DUPLICATE, None, DUPLICATE_SETTINGS, "", "SBNL-wedstrijdregels"),
    "duplicate.settings": (
        DUPLICATE,
        # The rules as `duplicate_rules_set` keeps a change: one key per rule.
        {"slips.turn_seconds": 180, "slips.position_off": "zero", "preset": "ntsv"},
        {"slips.turn_seconds": 150, "slips.position_off": "penalty", "preset": "fisf"},
        "",
        "180 → 150",
    ),
    "duplicate.archive": (DUPLICATE, {"archived": False}, {"archived": True}, "", "nee → ja"),
    "participant.add": (PARTICIPANT, None, None, "", "Cor Cornelissen (Duplicate 2026)"),
    "participant.withdraw": (
        PARTICIPANT,
        {"withdrawn_from_evening": None},
        {"withdrawn_from_evening": 4},
        "",
        "Teruggetrokken vanaf avond: — → 4",
    ),
    "participant.reinstate": (
        PARTICIPANT,
        {"withdrawn_from_evening": 4},
        {"withdrawn_from_evening": None},
        "",
        "4",
    ),
    "duplicate.evening": (
        EVENING,
        None,
        {"number": 1, "rules": "standard", "draw_rules": {"min_vowels": 2}},
        "",
        "eigen trekregels",
    ),
    "duplicate.draw": (
        TURN,
        None,
        {"turn": 3, "drawn": "KAAS?EN", "rack": "AAEKNS?"},
        "",
        "KAAS?EN",
    ),
    "duplicate.top": (TURN, None, {"turn": 3, "top": "8D KAArSEN", "score": 74}, "", "8D KAArSEN"),
    "duplicate.redo": (
        TURN,
        {"drawn": "KAAS?EN", "top": "8D KAArSEN", "score": 74},
        {"drawn": "KAAS?EN", "top": "", "score": 74},
        "",
        "8D KAArSEN",
    ),
    "slip.submit": (
        SLIP,
        None,
        {
            "turn": 3,
            "slip": "8H KAAZ",
            "claimed": 30,
            "score": 0,
            "why": {"code": "not_in_rack", "params": {"rack": "AAEKNS?", "missing": "Z"}},
            "late": True,
        },
        "",
        "bevat geen Z",
    ),
    "duplicate.add_time": (
        TURN,
        {"turn": 3, "deadline": "2026-03-05T19:03:00+00:00"},
        {"turn": 3, "deadline": "2026-03-05T19:04:00+00:00", "added_seconds": 60},
        "",
        "20:04:00",  # the deadline in the club's time (Europe/Amsterdam, UTC+1 in March)
    ),
    "slip.accept_late": (
        SLIP,
        {"slip": "8H KAAS", "score": 0, "late_accepted": False},
        {"slip": "8H KAAS", "score": 14, "late_accepted": True},
        "",
        "0 → 14",
    ),
    "slip.correct": (
        SLIP,
        {"slip": "8H KAAZ", "claimed": 30, "score": 0},
        {"slip": "8H KAAS", "claimed": 14, "score": 14},
        "",
        "8H KAAS",
    ),
    "slip.void": (
        SLIP,
        {"turn": 3, "slip": "8D KAArSEN", "score": 74},
        {"turn": 3, "slip": "8D KAArSEN", "score": 0, "void": True},
        "turn_redo",
        "vervallen",
    ),
    # duplicate/services/jury.py
    "slip.conflict": (
        SLIP,
        {"turn": 3, "slip": "8H KAAS", "claimed": 14},
        {"turn": 3, "typed_again": "8H KAAZ", "claimed": 30},
        "",
        "8H KAAZ",
    ),
    "slip.conflict_resolve": (
        SLIP,
        {"slip": "8H KAAS", "claimed": 14},
        {"typed_again": "8H KAAZ", "claimed": 30, "taken": True},
        "",
        "ja",
    ),
    "participant.table": (PARTICIPANT, {"table": None}, {"table": 12}, "", "— → 12"),
    # competition/services/importing.py, tsh.py
    "import.csv": (
        COMPETITION,
        None,
        {
            "players_created": ["Eva Evers"],
            "entrants_added": ["Eva Evers"],
            "rounds_created": [4, 5],
            "games": 12,
        },
        "",
        "Eva Evers",
    ),
    "import.tsh": (
        COMPETITION,
        None,
        {
            "name": "Open Gouda",
            "players": ["Ans de Vries", "Bert Bakker"],
            "rounds": 7,
            "games": 28,
        },
        "",
        "Open Gouda",
    ),
    # clubs/accounts.py
    "player.invite": (
        PLAYER,
        {"valid_until": None},
        {"valid_until": "2026-06-20T18:15:00+00:00"},
        "",
        "20 juni 2026",
    ),
    "account.create": (PLAYER, None, {"username": "cor"}, "", "cor"),
    "player.invite_mail": (PLAYER, None, {"email": "cor@example.nl"}, "", "cor@example.nl"),
    "account.email": (
        PLAYER,
        {"email": "cor@example.nl"},
        {"email": "cor@nieuw.nl"},
        "",
        "cor@nieuw.nl",
    ),
    # hosting/services.py
    "club.signup": (
        {"object_type": "club", "object_label": "De Woordzoekers"},
        None,
        {
            "name": "De Woordzoekers",
            "slug": "de-woordzoekers",
            "city": "Leiden",
            "username": "anke@example.nl",
        },
        "",
        "Leiden",
    ),
    # clubs/services.py
    "club.change": (
        {"object_type": "club", "object_label": "De Goudse Letters"},
        {"city": "Gouda"},
        {"city": "Waddinxveen"},
        "",
        "Waddinxveen",
    ),
    "player.change": (
        PLAYER,
        {"federation_number": "", "rating": None},
        {"federation_number": "12345", "rating": 1480},
        "",
        "12345",
    ),
    "player.delete": (
        PLAYER,
        {"name": "Cor Cornelissen", "federation_number": "", "rating": None, "username": None},
        None,
        "",
        "Cor Cornelissen",
    ),
    # privacy/erasure.py: the fact of the erasure, under the placeholder, without the data
    "player.erase": (
        {"object_type": "player", "object_label": "#12"},
        None,
        None,
        "erase_own",
        "#12",
    ),
    "membership.add": (PLAYER, None, {"role": "member"}, "", "lid"),
    # persons/services.py
    "membership.details": (
        PLAYER,
        {"member_number": "12", "note": ""},
        {"member_number": "13", "note": "betaalt per kwartaal"},
        "",
        "betaalt per kwartaal",
    ),
    "person.merge": (
        PLAYER,
        {"name": "anna de vries", "federation_number": "NL-5"},
        {"name": "Anna de Vries", "rows_moved": 14},
        "",
        "Rijen verplaatst: — → 14",
    ),
    "person.unmerge": (
        PLAYER,
        {"name": "anna de vries", "federation_number": "NL-5"},
        {"name": "Anna de Vries", "rows_moved": 14},
        "",
        "NL-5",
    ),
    "membership.role": (PLAYER, {"role": "member"}, {"role": "secretary"}, "", "secretaris"),
    "membership.remove": (PLAYER, {"role": "secretary"}, None, "", "secretaris"),
    # archives/services.py, hosting/services.py (the operator)
    "archive.download": (
        CLUB,
        None,
        {"archive_downloaded_at": "2026-06-20T18:15:00+00:00"},
        "",
        "20 juni 2026",
    ),
    "operator.approve": (
        CLUB,
        {"club_status": "pending"},
        {"club_status": "active"},
        "",
        "wacht op goedkeuring → actief",
    ),
    "operator.suspend": (
        CLUB,
        {"club_status": "active"},
        {"club_status": "suspended"},
        "",
        "actief → opgeschort",
    ),
    "operator.reactivate": (
        CLUB,
        {"club_status": "suspended"},
        {"club_status": "active"},
        "",
        "opgeschort → actief",
    ),
    "operator.remove": (
        {"object_type": "club", "object_label": "De Goudse Letters", "club_id": None},
        {
            "name": "De Goudse Letters",
            "slug": "gouda",
            "city": "Gouda",
            "club_status": "suspended",
            "archive_downloaded_at": "2026-06-20T18:15:00+00:00",
        },
        None,
        "",
        "Status van de club: opgeschort",
    ),
    "entrant.remove": (ENTRANT, {"player": "Cor Cornelissen"}, None, "", "Cor Cornelissen"),
    "participant.remove": (PARTICIPANT, {"player": "Cor Cornelissen"}, None, "", "Cor Cornelissen"),
    "event.create": (
        EVENT,
        None,
        {
            "name": "Gouds Open",
            "slug": "open",
            "event_kind": "interclub",
            "date": "2027-03-13",
            "season": "2026-2027",
            "entry_by_players": True,
            "entry_by_clubs": False,
            "guests_allowed": True,
            "entry_closes_at": "2027-03-06T18:00:00+00:00",
        },
        "",
        "Clubs schrijven hun leden in: — → nee",
    ),
    "event.settings": (
        EVENT,
        {"event_kind": "open", "entry_closes_at": None},
        {"event_kind": "interclub", "entry_closes_at": "2027-03-06T18:00:00+00:00"},
        "",
        "open toernooi → interclub",
    ),
    "event.directors": (EVENT, {"directors": []}, {"directors": ["anke"]}, "", "Wedstrijdleiders"),
    "event.jury": (EVENT, {"jury": ["anke"]}, {"jury": ["anke", "bert"]}, "", "anke, bert"),
    "event.entry": (
        EVENT,
        None,
        {"player": "Cor Cornelissen", "club": "Scrabbleclub Delft", "divisions": ["A", "B"]},
        "",
        "Club: — → Scrabbleclub Delft",
    ),
    "event.withdraw": (
        EVENT,
        {"player": "Cor Cornelissen", "club": None, "divisions": ["A"]},
        None,
        "",
        "Cor Cornelissen",
    ),
    "operator.act_start": (CLUB, None, None, "", "Dienstbeheerder treedt op voor de club"),
    "operator.act_stop": (CLUB, None, None, "", "De Goudse Letters"),
    # events/services.py season_create, season_update; ranking/services.py evening_publish
    "season.create": (
        {"object_type": "season", "object_label": "Seizoen 2026"},
        None,
        {
            "name": "Seizoen 2026",
            "slug": "2026",
            "start": "2026-01-01",
            "end": "2026-12-31",
            "gap_value": "20",
            "min_games": 3,
            "min_interclub_share": 33,
            "counted_results": None,
            "result_months": 12,
            "club_results": 10,
        },
        "",
        "Minimaal deel van de interclubs van het seizoen (%): — → 33",
    ),
    "season.settings": (
        {"object_type": "season", "object_label": "Seizoen 2026"},
        {"gap_value": "20", "end": "2026-12-31"},
        {"gap_value": "21.5", "end": "2027-01-31"},
        "",
        "31 januari 2027",
    ),
    "ranking.publish": (
        {"object_type": "ranked_game", "object_label": "Interclub Gouda – 1"},
        {"players": 140, "winner_points": 912, "median_points": 701.5},
        {"players": 141, "winner_points": 912, "median_points": 700.0},
        "",
        "Punten van de mediaanspeler: 701,5 → 700",
    ),
    # ranking/publications.py publication_create
    "ranking.official": (
        {"object_type": "publication", "object_label": "Seizoen 2026 – 2"},
        None,
        {"version": 2, "on": "2026-06-01", "persons": 140, "ranked": 120},
        "",
        "1 juni 2026",
    ),
    # duplicate/services/presence.py presence_set
    "presence.set": (
        {"object_type": "participant", "object_label": "Anna (Duplicate – 1)"},
        {"presence": "present", "left_after_turn": None},
        {"presence": "left", "left_after_turn": 7},
        "",
        "7",
    ),
    # clubs/services.py player_calendar_renew
    "player.calendar": (
        {"object_type": "player", "object_label": "Anna"},
        {"calendar_feed": True},
        {"calendar_feed": True},
        "",
        "Anna",
    ),
    # notifications/services.py subscriptions_set, subscription_end
    "player.notifications": (
        {"object_type": "player", "object_label": "Anna"},
        {"notifications": ["pairing_published"]},
        {"notifications": ["pairing_published", "event_tomorrow"]},
        "",
        "De dag voor een evenement waarvoor je bent ingeschreven",
    ),
    # ranking/services.py event_ranked_again: the event's season taken away
    "ranking.withdraw": (
        {"object_type": "ranked_event", "object_label": "Interclub Gouda"},
        {"season": "Seizoen 2026-2027", "games": 3},
        None,
        "",
        "Seizoen 2026-2027",
    ),
    # ranking/files_import.py _write
    "ranking.import": (
        {"object_type": "ranked_event", "object_label": "Interclub Gouda (Seizoen 2026-2027)"},
        None,
        {
            "name": "Interclub Gouda",
            "date": "2026-10-03",
            "games": 3,
            "results": 450,
            "players_created": 12,
        },
        "",
        "3 oktober 2026",
    ),
}


# The same game actions as entries written before tables of 3 and 4 hold them (two sides
# "a"/"b", `winner`, `score_a`/`score_b`): they are kept as recorded and must still read.
OLD_RESULT_NONE = {"outcome": "", "winner": "", "score_a": None, "score_b": None}
OLD_RESULT = {"outcome": "normal", "winner": "a", "score_a": 412, "score_b": 380}
OLD_FLAG = {"outcome": "flag_fall", "winner": "b", "score_a": 301, "score_b": 288}
OLD_STATE = {**OLD_RESULT, "confirmation": "provisional", "entered_by_player": "a"}
OLD_MOVE = {"number": 3, "side": "b", "notation": "8H WOORD", "rack": "DEORSTW"}
OLD_SAMPLES = {
    "result.enter": (
        GAME,
        OLD_RESULT_NONE,
        OLD_RESULT,
        "",
        "Ans de Vries 412 – 380 Bert Bakker, Ans de Vries wint",
    ),
    "result.correct": (GAME, OLD_RESULT, OLD_FLAG, "from_moves", "vlag van Ans de Vries gevallen"),
    "result.confirm": (
        GAME,
        OLD_STATE,
        {**OLD_STATE, "confirmation": "confirmed"},
        "",
        "voorlopig → bevestigd",
    ),
    "result.dispute": (
        GAME,
        OLD_STATE,
        {
            **OLD_STATE,
            "confirmation": "disputed",
            "counter_outcome": "normal",
            "counter_winner": "b",
            "counter_score_a": 380,
            "counter_score_b": 412,
        },
        "",
        "Invoer van Bert Bakker",
    ),
    "result.override": (
        GAME,
        {
            **OLD_STATE,
            "confirmation": "disputed",
            "counter_result": {**OLD_RESULT, "winner": "draw", "score_b": 412},
        },
        {
            **OLD_RESULT,
            "winner": "b",
            "score_b": 420,
            "confirmation": "confirmed",
            "entered_by_player": "a",
        },
        "",
        "betwist → bevestigd",
    ),
    "move.add": (
        GAME,
        None,
        {**OLD_MOVE, "notation": "(challenge)", "rack": ""},
        "",
        "Bert Bakker: bezwaar: woord goed",
    ),
    "move.undo": (GAME, {**OLD_MOVE, "notation": "-"}, None, "", "Zet 3"),
    "move.correct": (GAME, OLD_MOVE, {**OLD_MOVE, "notation": "swap H8 K5"}, "", "blanco"),
    "game.starter": (GAME, {"starter": ""}, {"starter": "b"}, "", "Bert Bakker"),
    "clock.flag": (
        GAME,
        None,
        {"left_ms": [0, 312_000], "flag": "a", "flag_at_ms": 2_712_000},
        "",
        "45:12",
    ),
    "moves.import": (
        GAME,
        {"starter": "a", "moves": []},
        {
            "starter": "b",
            "moves": [
                {"number": 1, "side": "b", "notation": "H8 zOEN", "rack": ""},
                {"number": 2, "side": "a", "notation": "-ABC", "rack": "ABCEENR"},
                {"number": 3, "side": "b", "notation": "--", "rack": ""},
                {"number": 4, "side": "a", "notation": "-3", "rack": ""},
                {"number": 5, "side": "b", "notation": "(time 2)", "rack": ""},
                {"number": 6, "side": "a", "notation": "(flagfall)", "rack": ""},
                {"number": 7, "side": "b", "notation": "(annulled)", "rack": ""},
                {"number": 8, "side": "a", "notation": "(EI)", "rack": ""},
            ],
        },
        "",
        "bezwaar: woord fout",
    ),
}
#: Every sample by the name the tests show: "result.enter", and "result.enter (old)".
ALL_SAMPLES = {**SAMPLES, **{f"{action} (old)": sample for action, sample in OLD_SAMPLES.items()}}


def _source_files():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts and path != ROOT / "clubs" / "history.py":
                yield path


def _recorded_actions() -> set[str]:
    names = set()
    for path in _source_files():
        names |= set(re.findall(r"HistoryAction\.([A-Z][A-Z_0-9]+)", path.read_text()))
    return {HistoryAction[name].value for name in names}


def test_actions_are_only_ever_recorded_by_their_code():
    """No service writes an action as a literal string: HistoryAction is the one home."""
    offenders = []
    for path in _source_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            callee = getattr(node.func, "attr", getattr(node.func, "id", ""))
            for keyword in node.keywords:
                literal = isinstance(keyword.value, ast.Constant)
                if keyword.arg == "action" and literal and callee != "add_argument":
                    offenders.append(f"{path}:{node.lineno}")
    assert offenders == []


def test_every_recorded_action_has_a_sample():
    recorded = _recorded_actions()
    assert recorded == set(HistoryAction.values), "an action recorded nowhere, or unknown"
    assert set(SAMPLES) == recorded


def _entry(action: str) -> HistoryEntry:
    context, before, after, reason_code, _expected = ALL_SAMPLES[action]
    return HistoryEntry(
        action=action.removesuffix(" (old)"),
        before=before,
        after=after,
        reason_code=reason_code,
        by_name="sietske",
        **context,
    )


def _page_text(entry: HistoryEntry) -> str:
    html = render_to_string("history/_entries.html", {"entries": [entry], "show_round": True})
    text = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", text.replace("&nbsp;", " ")).strip()


def _forbidden_words() -> set[str]:
    """Codes and keys that would be English or raw on a Dutch page: every registered code
    and every key whose Dutch name differs from it."""
    with translation.override("nl"):
        dutch = " ".join(
            str(label).lower()
            for labels in (
                *(pairs.values() for pairs in registered_choices().values()),
                HistoryAction.labels,
                FIELD_LABELS.values(),
            )
            for label in labels
        )
        words = {
            str(code)
            for pairs in registered_choices().values()
            for code, label in pairs.items()
            if len(str(code)) >= 3 and str(label).lower() != str(code)
        }
        keys = {
            key
            for _c, before, after, *_rest in ALL_SAMPLES.values()
            for side in (before, after)
            if isinstance(side, dict)
            for key in side
        }
        words |= {key for key in keys | set(FIELD_LABELS) if len(key) >= 3}
    # A code that is also a Dutch word of some label ("status", "rating") is no sign.
    return {word for word in words if not re.search(rf"\b{re.escape(word)}\b", dutch)} | {
        "player",
        "move",
        "wins",
        "entry",
        "starts",
        "table",
        "result",
        "challenge",
        "None",
        "True",
        "False",
    }


@pytest.mark.parametrize("action", sorted(ALL_SAMPLES))
def test_the_entry_reads_as_dutch(action):
    entry = _entry(action)
    with translation.override("nl"):
        text = _page_text(entry)
    expected = ALL_SAMPLES[action][4]
    assert expected in text, text
    raw = re.findall(r"\w_\w|[{}\[\]']|\((?:challenge|flagfall|annulled|time \d+)\)", text)
    assert raw == [], text
    words = set(re.findall(r"[A-Za-z_]+", text))
    assert words & _forbidden_words() == set(), text


@pytest.mark.parametrize("action", sorted(ALL_SAMPLES))
def test_the_entry_reads_in_english_when_chosen(action):
    with translation.override("en"):
        text = _page_text(_entry(action))
    assert re.findall(r"\w_\w|[{}\[\]]|\b(?:None|True|False)\b", text) == [], text
    assert "Nothing changed yet" not in text
