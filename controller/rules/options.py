"""Rule options and the named presets (RULES.md sections 2 and 3).

The engine reads only :class:`Rules`; a preset is a named bundle of option values, and any option
can be overridden: ``build_rules("latin", {"target": 100})``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from controller.errors import RulesError, UnknownPresetError
from controller.rules.tiles import SUPPORTED_MAX_PIPS, DominoSet, domino_set


class Boneyard(StrEnum):
    NONE = "none"
    DRAW_UNTIL_FITS = "draw_until_fits"
    DRAW_ONE = "draw_one"
    #: A player may draw whenever it is their turn, and may pass when unable to play.
    OPTIONAL = "optional"


class FirstLead(StrEnum):
    #: The holder of the set's top double leads with it.
    HOLDER_OF_TOP_DOUBLE = "holder_of_top_double"
    #: The holder of the highest double dealt leads with it (no double: the heaviest tile).
    HIGHEST_DOUBLE = "highest_double"
    #: Players draw a tile each; the highest leads with any tile (a record names the seat).
    DRAWN_TILE = "drawn_tile"
    #: Any seat leads with any tile (a record names the seat).
    CHOSEN_SEAT = "chosen_seat"


class NextLead(StrEnum):
    ROTATE = "rotate"
    HAND_WINNER = "hand_winner"
    WINNING_SIDE_CHOOSES = "winning_side_chooses"


class Points(StrEnum):
    #: Pips left in the hands of the other sides.
    OPPONENTS = "opponents"
    #: Pips left in every hand, the winner's partner's included.
    ALL = "all"
    #: Pips of each other side minus the winning side's own pips.
    DIFFERENCE = "difference"
    NONE = "none"


class BlockWinner(StrEnum):
    LOWEST_SIDE = "lowest_side"
    LOWEST_PLAYER = "lowest_player"


class BlockTie(StrEnum):
    NOBODY = "nobody"
    #: The side that led the hand wins, and the same seat leads the next hand.
    LEADING_SIDE = "leading_side"
    #: The side that made the blocking play wins.
    BLOCKER = "blocker"


class EndScoring(StrEnum):
    NONE = "none"
    ALL_FIVES = "all_fives"
    FIVES_AND_THREES = "fives_and_threes"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of RULES.md section 3. ``preset`` only names where the values came from."""

    preset: str = "custom"
    max_pip: int = 6
    seats: int = 4
    partnerships: bool = True
    hand_size: int = 7
    boneyard: Boneyard = Boneyard.NONE
    pass_when_able: bool = False
    first_lead: FirstLead = FirstLead.HOLDER_OF_TOP_DOUBLE
    next_lead: NextLead = NextLead.ROTATE
    lead_double_if_held: bool = False
    redeal_if_no_double: bool = False
    domino_points: Points = Points.OPPONENTS
    block_winner: BlockWinner = BlockWinner.LOWEST_SIDE
    block_points: Points = Points.OPPONENTS
    block_tie: BlockTie = BlockTie.NOBODY
    pase_corrido_bonus: int = 0
    capicua_bonus: int = 0
    end_scoring: EndScoring = EndScoring.NONE
    going_out_bonus: int = 0
    round_to: int = 1
    count_by: int = 1
    spinner: bool = False
    target: int = 100
    exact_target: bool = False

    # Derived once, read on every move.
    tileset: DominoSet = field(init=False, repr=False, compare=False)
    sides: int = field(init=False, repr=False, compare=False)
    all_dealt: bool = field(init=False, repr=False, compare=False)
    _side_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _seats_of: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problems = list(_problems(self))
        if problems:
            raise RulesError(f"invalid rules ({self.preset}): " + "; ".join(problems))
        tileset = domino_set(self.max_pip)
        object.__setattr__(self, "tileset", tileset)
        object.__setattr__(self, "sides", 2 if self.partnerships else self.seats)
        #: Whether every tile of the set is in someone's hand at the start.
        object.__setattr__(self, "all_dealt", self.seats * self.hand_size == len(tileset.tiles))
        object.__setattr__(
            self,
            "_side_of",
            tuple(s % 2 if self.partnerships else s for s in range(self.seats)),
        )
        object.__setattr__(
            self,
            "_seats_of",
            tuple(
                tuple(s for s in range(self.seats) if self._side_of[s] == side)
                for side in range(self.sides)
            ),
        )

    def side_of(self, seat: int) -> int:
        """Sides come from the partnership, never from seat arithmetic elsewhere."""
        return self._side_of[seat]

    def seats_of(self, side: int) -> tuple[int, ...]:
        return self._seats_of[side]

    @property
    def target_checked_mid_hand(self) -> bool:
        return self.end_scoring is not EndScoring.NONE

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule's preset, as JSON values."""
        base = PRESETS.get(self.preset)
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "preset" or not f.init:
                continue
            value = getattr(self, f.name)
            if base is None or getattr(base, f.name) != value:
                out[f.name] = _json_value(value)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            f.name: _json_value(getattr(self, f.name)) for f in dataclasses.fields(self) if f.init
        }


def _json_value(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


def _problems(r: Rules) -> list[str]:
    out: list[str] = []
    if r.max_pip not in SUPPORTED_MAX_PIPS:
        out.append(f"max_pip must be one of {SUPPORTED_MAX_PIPS}")
        return out
    if not 2 <= r.seats <= 4:
        out.append("seats must be 2, 3 or 4")
    if r.partnerships and r.seats != 4:
        out.append("partnerships need 4 seats")
    size = len(domino_set(r.max_pip).tiles)
    if r.hand_size < 1 or r.seats * r.hand_size > size:
        out.append(f"hand_size {r.hand_size} x {r.seats} seats does not fit a {size}-tile set")
    if r.round_to not in (1, 5):
        out.append("round_to must be 1 or 5")
    if r.count_by not in (1, 10):
        out.append("count_by must be 1 or 10")
    if r.target < 1:
        out.append("target must be positive")
    for name in ("pase_corrido_bonus", "capicua_bonus", "going_out_bonus"):
        if getattr(r, name) < 0:
            out.append(f"{name} cannot be negative")
    if r.boneyard is not Boneyard.NONE and r.seats * r.hand_size == size:
        out.append("a boneyard needs tiles left over after the deal")
    return out


def _preset(name: str, **values: Any) -> Rules:
    return Rules(preset=name, **values)


#: One place lists them all (RULES.md section 2).
PRESETS: dict[str, Rules] = {
    "latin": _preset(
        "latin",
        first_lead=FirstLead.HOLDER_OF_TOP_DOUBLE,
        next_lead=NextLead.ROTATE,
        lead_double_if_held=True,
        domino_points=Points.OPPONENTS,
        block_points=Points.OPPONENTS,
        block_tie=BlockTie.LEADING_SIDE,
        pase_corrido_bonus=25,
        target=200,
    ),
    "international": _preset(
        "international",
        first_lead=FirstLead.DRAWN_TILE,
        next_lead=NextLead.ROTATE,
        domino_points=Points.ALL,
        block_points=Points.ALL,
        block_tie=BlockTie.NOBODY,
        target=200,
    ),
    "colombian": _preset(
        "colombian",
        first_lead=FirstLead.HOLDER_OF_TOP_DOUBLE,
        next_lead=NextLead.WINNING_SIDE_CHOOSES,
        domino_points=Points.OPPONENTS,
        block_points=Points.OPPONENTS,
        block_tie=BlockTie.LEADING_SIDE,
        target=100,
    ),
    "cuban": _preset(
        "cuban",
        max_pip=9,
        hand_size=10,
        first_lead=FirstLead.HIGHEST_DOUBLE,
        next_lead=NextLead.ROTATE,
        domino_points=Points.OPPONENTS,
        block_points=Points.OPPONENTS,
        block_tie=BlockTie.LEADING_SIDE,
        target=100,
    ),
    "draw": _preset(
        "draw",
        seats=2,
        partnerships=False,
        boneyard=Boneyard.DRAW_UNTIL_FITS,
        first_lead=FirstLead.HIGHEST_DOUBLE,
        redeal_if_no_double=True,
        next_lead=NextLead.HAND_WINNER,
        domino_points=Points.DIFFERENCE,
        block_points=Points.DIFFERENCE,
        block_winner=BlockWinner.LOWEST_PLAYER,
        block_tie=BlockTie.NOBODY,
        target=50,
    ),
    "block": _preset(
        "block",
        first_lead=FirstLead.HIGHEST_DOUBLE,
        next_lead=NextLead.ROTATE,
        domino_points=Points.ALL,
        block_points=Points.ALL,
        block_tie=BlockTie.NOBODY,
        target=100,
    ),
    "all_fives": _preset(
        "all_fives",
        seats=2,
        partnerships=False,
        boneyard=Boneyard.DRAW_UNTIL_FITS,
        first_lead=FirstLead.HIGHEST_DOUBLE,
        next_lead=NextLead.HAND_WINNER,
        domino_points=Points.OPPONENTS,
        block_points=Points.DIFFERENCE,
        block_tie=BlockTie.NOBODY,
        end_scoring=EndScoring.ALL_FIVES,
        round_to=5,
        target=150,
    ),
    "fives_and_threes": _preset(
        "fives_and_threes",
        seats=2,
        partnerships=False,
        boneyard=Boneyard.DRAW_UNTIL_FITS,
        first_lead=FirstLead.HIGHEST_DOUBLE,
        next_lead=NextLead.HAND_WINNER,
        domino_points=Points.NONE,
        block_points=Points.NONE,
        block_tie=BlockTie.NOBODY,
        going_out_bonus=1,
        end_scoring=EndScoring.FIVES_AND_THREES,
        exact_target=True,
        target=61,
    ),
}

_FIELDS = {f.name: f for f in dataclasses.fields(Rules) if f.name != "preset" and f.init}
_ENUMS: dict[str, type[StrEnum]] = {
    "boneyard": Boneyard,
    "first_lead": FirstLead,
    "next_lead": NextLead,
    "domino_points": Points,
    "block_points": Points,
    "block_winner": BlockWinner,
    "block_tie": BlockTie,
    "end_scoring": EndScoring,
}
_BOOLS = {name for name, f in _FIELDS.items() if f.type in ("bool", bool)}
OPTION_NAMES = tuple(_FIELDS)


def preset_names() -> tuple[str, ...]:
    return tuple(PRESETS)


def find_preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPresetError(
            f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}"
        ) from None


def build_rules(preset: str, overrides: Mapping[str, object] | None = None) -> Rules:
    """A preset with options overridden. Values may be typed or strings (from a command line).

    Changing ``seats`` away from 4 without naming ``partnerships`` plays individually, and
    fives-and-threes with 3 or 4 seats deals 5 tiles unless ``hand_size`` is given.
    """
    base = find_preset(preset)
    values: dict[str, object] = {}
    for key, raw in (overrides or {}).items():
        values[key] = parse_option(key, raw)
    if "seats" in values and "partnerships" not in values:
        values["partnerships"] = values["seats"] == 4 and base.partnerships
    if (
        base.end_scoring is EndScoring.FIVES_AND_THREES
        and "hand_size" not in values
        and int(str(values.get("seats", base.seats))) > 2
    ):
        values["hand_size"] = 5
    return dataclasses.replace(base, **values)  # type: ignore[arg-type]


def parse_option(key: str, raw: object) -> object:
    """Check one option name and convert its value (typed, or a string from a command line)."""
    if key not in _FIELDS:
        raise RulesError(f"unknown option {key!r}: known options are {', '.join(OPTION_NAMES)}")
    if key in _ENUMS:
        enum = _ENUMS[key]
        try:
            return enum(str(raw))
        except ValueError:
            choices = ", ".join(e.value for e in enum)
            raise RulesError(f"option {key}: {raw!r} is not one of {choices}") from None
    if key in _BOOLS:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise RulesError(f"option {key}: {raw!r} is not a boolean (true/false)")
    if isinstance(raw, bool):
        raise RulesError(f"option {key}: {raw!r} is not a whole number")
    if isinstance(raw, int):
        return raw
    try:
        return int(str(raw).strip())
    except ValueError:
        raise RulesError(f"option {key}: {raw!r} is not a whole number") from None
