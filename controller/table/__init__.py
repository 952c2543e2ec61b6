"""The table session: a pure state machine from vision events, button gestures, link changes and
API commands to moves, alerts, LED states and published state (DESIGN.md).

``state, effects = step(state, input)``; see :mod:`controller.table.session`.
"""

from controller.table.effects import (
    CorrectVision,
    DomainEvent,
    Effect,
    Emit,
    PublishState,
    SetLeds,
)
from controller.table.export import match_record, result_json
from controller.table.inputs import (
    Button,
    ConfirmReveal,
    CorrectTile,
    Laid,
    Link,
    NewMatch,
    Revealed,
    SetLeader,
    TableInput,
    TileNudged,
    TilesLaid,
    TileTaken,
    UndoLast,
    VisionUnsure,
    input_from_json,
    input_to_json,
)
from controller.table.queries import problems
from controller.table.session import initial_state, replay_inputs, step
from controller.table.snapshot import SCHEMA, snapshot
from controller.table.state import TableState

__all__ = [
    "SCHEMA",
    "Button",
    "ConfirmReveal",
    "CorrectTile",
    "CorrectVision",
    "DomainEvent",
    "Effect",
    "Emit",
    "Laid",
    "Link",
    "NewMatch",
    "PublishState",
    "Revealed",
    "SetLeader",
    "SetLeds",
    "TableInput",
    "TableState",
    "TileNudged",
    "TileTaken",
    "TilesLaid",
    "UndoLast",
    "VisionUnsure",
    "initial_state",
    "input_from_json",
    "input_to_json",
    "match_record",
    "problems",
    "replay_inputs",
    "result_json",
    "snapshot",
    "step",
]
