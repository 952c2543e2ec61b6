import pytest

from controller.errors import RulesError, UnknownPresetError
from controller.rules.options import (
    PRESETS,
    Boneyard,
    EndScoring,
    FirstLead,
    NextLead,
    Points,
    build_rules,
    find_preset,
)

# RULES.md section 2, one row per preset: set, seats, partnerships, hand size, boneyard, target.
PRESET_TABLE = {
    "latin": (6, 4, True, 7, Boneyard.NONE, 200),
    "international": (6, 4, True, 7, Boneyard.NONE, 200),
    "colombian": (6, 4, True, 7, Boneyard.NONE, 100),
    "cuban": (9, 4, True, 10, Boneyard.NONE, 100),
    "draw": (6, 2, False, 7, Boneyard.DRAW_UNTIL_FITS, 50),
    "block": (6, 4, True, 7, Boneyard.NONE, 100),
    "all_fives": (6, 2, False, 7, Boneyard.DRAW_UNTIL_FITS, 150),
    "fives_and_threes": (6, 2, False, 7, Boneyard.DRAW_UNTIL_FITS, 61),
}


def test_every_preset_is_listed() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize("name", PRESET_TABLE)
def test_preset_table(name: str) -> None:
    r = find_preset(name)
    assert (r.max_pip, r.seats, r.partnerships, r.hand_size, r.boneyard, r.target) == (
        PRESET_TABLE[name]
    )


def test_cuban_leaves_fifteen_undealt() -> None:
    r = find_preset("cuban")
    assert len(r.tileset.tiles) - r.seats * r.hand_size == 15


def test_preset_specifics() -> None:
    assert find_preset("latin").pase_corrido_bonus == 25
    assert find_preset("latin").lead_double_if_held
    assert find_preset("international").first_lead is FirstLead.DRAWN_TILE
    assert find_preset("international").domino_points is Points.ALL
    assert find_preset("colombian").next_lead is NextLead.WINNING_SIDE_CHOOSES
    assert find_preset("draw").redeal_if_no_double
    assert find_preset("draw").domino_points is Points.DIFFERENCE
    assert find_preset("all_fives").end_scoring is EndScoring.ALL_FIVES
    assert find_preset("all_fives").round_to == 5
    assert find_preset("fives_and_threes").exact_target
    assert find_preset("fives_and_threes").going_out_bonus == 1


def test_override_from_strings() -> None:
    r = build_rules("latin", {"target": "100", "pase_corrido_bonus": "30", "spinner": "yes"})
    assert (r.target, r.pase_corrido_bonus, r.spinner) == (100, 30, True)
    assert r.preset == "latin"
    assert r.overrides() == {"target": 100, "pase_corrido_bonus": 30, "spinner": True}


def test_fewer_seats_play_individually() -> None:
    r = build_rules("block", {"seats": 3})
    assert not r.partnerships
    assert r.sides == 3


def test_fives_and_threes_deals_five_to_three_or_four() -> None:
    assert build_rules("fives_and_threes", {"seats": 4}).hand_size == 5
    assert build_rules("fives_and_threes", {"seats": 3}).hand_size == 5
    assert build_rules("fives_and_threes").hand_size == 7


def test_sides_come_from_partnerships() -> None:
    pairs = find_preset("latin")
    assert [pairs.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert pairs.seats_of(1) == (1, 3)
    alone = build_rules("block", {"seats": 4, "partnerships": False})
    assert [alone.side_of(s) for s in range(4)] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"nope": 1}, "unknown option"),
        ({"target": "many"}, "not a whole number"),
        ({"boneyard": "sometimes"}, "not one of"),
        ({"spinner": "maybe"}, "not a boolean"),
        ({"seats": 5}, "seats must be"),
        ({"seats": 3, "partnerships": True}, "partnerships need 4 seats"),
        ({"hand_size": 8}, "does not fit"),
        ({"max_pip": 7}, "max_pip"),
        ({"round_to": 3}, "round_to"),
        ({"boneyard": "draw_one"}, "boneyard needs tiles left over"),
        ({"target": 0}, "target must be positive"),
    ],
)
def test_bad_options(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        build_rules("latin", overrides)


def test_unknown_preset() -> None:
    with pytest.raises(UnknownPresetError, match="latin"):
        find_preset("martian")
