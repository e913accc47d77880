import dataclasses
import json

import pytest

from rules import GOUDS_8, NASPA, RULE_SETS, SBNL_WEDSTRIJD, STANDARD, RuleSet, RuleSetError
from rules import rule_set as lookup


def test_standard_preset():
    r = STANDARD
    assert (r.players_min, r.players_max, r.rack_size, r.bingo_bonus) == (2, 4, 7, 50)
    assert r.passing_allowed and r.exchange_allowed and not r.blank_swap_allowed
    assert (r.exchange_min_bag, r.exchange_max_tiles) == (7, 7)
    assert r.turn_limit is None and not r.flag_fall_loses
    assert (r.end_scoreless_turns, r.end_scoreless_kind, r.end_going_out) == (2, "passes", True)
    assert r.end_adjustment == "subtract_add"
    assert (r.invalid_word_penalty, r.wrong_challenge) == (0, "none")
    assert r.lexicon == "standard"


def test_gouds8_preset():
    r = GOUDS_8
    assert (r.players_min, r.players_max, r.rack_size, r.bingo_bonus) == (2, 2, 8, 0)
    assert r.turn_limit == 8 and r.clock_minutes == 25 and r.flag_fall_loses
    assert r.blank_swap_allowed and r.passing_allowed
    assert r.exchange_max_tiles is None and r.exchange_min_bag == 7
    assert r.end_adjustment == "none" and r.end_scoreless_turns is None
    assert r.wrong_challenge == "lose_turn" and r.invalid_word_penalty == 0
    assert r.lexicon == "gouds8"


def test_sbnl_preset():
    r = SBNL_WEDSTRIJD
    assert (r.players_max, r.rack_size, r.bingo_bonus, r.clock_minutes) == (2, 7, 50, 35)
    assert not r.passing_allowed
    assert r.exchange_first_turn_allowed and r.exchange_requires_previous_play
    assert r.exchange_min_bag == 16
    assert (r.invalid_word_penalty, r.wrong_challenge, r.wrong_challenge_points) == (
        20,
        "penalty",
        20,
    )
    assert r.overtime_penalty == 10 and not r.flag_fall_loses
    assert r.end_going_out_equal_turns and r.end_adjustment == "subtract"


def test_naspa_preset_for_english_records():
    assert NASPA.wrong_challenge == "bonus" and NASPA.wrong_challenge_points == 5
    assert NASPA.end_adjustment == "double"


@pytest.mark.parametrize("preset", list(RULE_SETS.values()))
def test_dict_round_trip_is_json_safe(preset):
    data = json.loads(json.dumps(preset.to_dict()))
    assert RuleSet.from_dict(data) == preset
    assert lookup(preset.name) is preset


def test_replace_gives_a_club_variant():
    club = dataclasses.replace(GOUDS_8, name="gouds10", turn_limit=10)
    assert club.turn_limit == 10 and club.rack_size == 8
    assert RuleSet.from_dict(club.to_dict()) == club
    with pytest.raises(RuleSetError):
        dataclasses.replace(GOUDS_8, rack_size=0)


def test_from_dict_defaults_missing_fields():
    r = RuleSet.from_dict({"name": "home", "bingo_bonus": 40})
    assert r.bingo_bonus == 40 and r.rack_size == 7


@pytest.mark.parametrize(
    "data, fragment",
    [
        ({"name": "x", "colour": "red"}, "unknown field"),
        ({"bingo_bonus": 1}, "'name' is required"),
        ({"name": "x", "rack_size": "8"}, "rack_size must be a whole number"),
        ({"name": "x", "passing_allowed": 1}, "passing_allowed must be true or false"),
        ({"name": "x", "turn_limit": 0}, "turn_limit must be at least 1"),
        ({"name": "x", "end_adjustment": "bonus"}, "end_adjustment must be one of"),
        ({"name": "x", "wrong_challenge": "penalty"}, "needs wrong_challenge_points"),
        ({"name": "x", "players_min": 3, "players_max": 2}, "players"),
        ({"name": "x", "bingo_bonus": -5}, "must not be negative"),
        ({"name": ""}, "name must not be empty"),
        ("gouds8", "JSON object"),
    ],
)
def test_from_dict_validation(data, fragment):
    with pytest.raises(RuleSetError) as err:
        RuleSet.from_dict(data)
    assert err.value.code == "invalid_rule_set"
    assert fragment in str(err.value)


def test_unknown_preset():
    assert lookup("GOUDS_8") is GOUDS_8
    assert lookup("sbnl-wedstrijd") is SBNL_WEDSTRIJD
    with pytest.raises(RuleSetError) as err:
        lookup("blitz")
    assert err.value.code == "unknown_rule_set"
