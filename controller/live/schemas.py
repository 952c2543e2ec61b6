"""The JSON Schema files and examples in ``schemas/``, generated from the models.

``python -m controller.live.schemas`` rewrites them; a test checks they are up to date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from controller.live import examples
from controller.live.models import (
    CommandPayload,
    DevicePayload,
    EventPayload,
    StatePayload,
    encode,
    json_schema,
)

SCHEMA_DIR = Path(__file__).parent / "schemas"


def _dump(obj: object) -> str:
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def expected_files() -> dict[str, str]:
    """Relative path -> text of every generated file."""
    files = {
        "state.schema.json": _dump(json_schema(StatePayload)),
        "event.schema.json": _dump(json_schema(EventPayload)),
        "device.schema.json": _dump(json_schema(DevicePayload)),
        "cmd.schema.json": _dump(json_schema(CommandPayload)),
        "examples/state.json": _dump(json.loads(encode(examples.example_state()))),
        "examples/event.json": _dump(json.loads(encode(examples.example_event()))),
        "examples/device.json": _dump(json.loads(encode(examples.example_device()))),
        "examples/cmd.json": _dump(examples.example_command()),
    }
    return files


def write(directory: Path = SCHEMA_DIR) -> list[Path]:
    written = []
    for rel, text in expected_files().items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in write():
        sys.stdout.write(f"{p}\n")
