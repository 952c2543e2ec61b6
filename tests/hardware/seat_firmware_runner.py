"""Client of ``mpy_runner.mjs``: the firmware's MicroPython in a Node.js process."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
HERE = Path(__file__).resolve().parent
WASM = (
    ROOT
    / "hardware/.node/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"
)


class MicroPython:
    """A node process running ``mpy_runner.mjs``: ``call({"cmd": ...})`` returns the reply."""

    def __init__(self) -> None:
        node = shutil.which("node")
        assert node, "Node.js is needed (scripts/setup-firmware.sh installs it)"
        self.proc = subprocess.Popen(
            [node, str(HERE / "mpy_runner.mjs"), str(FIRMWARE), str(HERE / "harness.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.banner = self._read()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the MicroPython runner died (see stderr)"
        reply: dict[str, Any] = json.loads(line)
        assert "error" not in reply, reply["error"]
        return reply

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
