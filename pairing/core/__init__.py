"""Pairing engines: pure functions from entrant records to a round's pairing.

Swiss (one maximum-weight matching), round robin (Berger tables), King of the Hill,
random, and a first round by rating or seed; who starts; who gets the bye. Tables of
3 and 4: the sizes, Swiss by tables, random tables and the golfer schedule. The Django
adapter in ``pairing.services`` turns ORM rows into ``PairingEntrant`` records and the
returned ``Pairing`` back into a round. This package must never import Django, the
ORM or another app of the project. See docs/pairing.md.
"""

from .common import MeetingHistory, choose_bye
from .dispatch import SYSTEMS, TABLE_SYSTEMS, pair, pair_tables
from .golfer import GolferRound, golfer_schedule, golfer_tables
from .records import (
    CriterionTotal,
    Explanation,
    ExplanationValue,
    Pair,
    Pairing,
    PairingEntrant,
    PairingError,
    PastGame,
    PastTable,
    RepeatMeeting,
    Table,
    TablePairing,
)
from .round_robin import RoundRobinRound, round_robin_round, round_robin_schedule, rounds_needed
from .simple import RATING_METHODS, by_rating, king_of_the_hill, random_pairing, round_robin
from .starters import STARTER_MODES, assign_starters, starter_preference
from .swiss import CRITERIA, DEFAULT_WINDOW, SwissWeights, swiss
from .tables import (
    SIZE_CHOICES,
    TableHistory,
    grouping_cost,
    random_tables,
    standings_tables,
    swap_players,
    swiss_tables,
    table_sizes,
)

__all__ = [
    "CRITERIA",
    "DEFAULT_WINDOW",
    "RATING_METHODS",
    "SIZE_CHOICES",
    "STARTER_MODES",
    "SYSTEMS",
    "TABLE_SYSTEMS",
    "CriterionTotal",
    "Explanation",
    "ExplanationValue",
    "GolferRound",
    "MeetingHistory",
    "Pair",
    "Pairing",
    "PairingEntrant",
    "PairingError",
    "PastGame",
    "PastTable",
    "RepeatMeeting",
    "RoundRobinRound",
    "SwissWeights",
    "Table",
    "TableHistory",
    "TablePairing",
    "assign_starters",
    "by_rating",
    "choose_bye",
    "golfer_schedule",
    "golfer_tables",
    "grouping_cost",
    "king_of_the_hill",
    "pair",
    "pair_tables",
    "random_pairing",
    "random_tables",
    "round_robin",
    "round_robin_round",
    "round_robin_schedule",
    "rounds_needed",
    "standings_tables",
    "starter_preference",
    "swap_players",
    "swiss",
    "swiss_tables",
    "table_sizes",
]
