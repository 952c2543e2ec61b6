"""The MicroPython (WebAssembly) runner for the firmware tests.

The npm package is installed by ``scripts/setup-firmware.sh``; if it is missing the fixture runs
that script itself, so the tests never skip for it (CI reaches the npm registry).
"""

from __future__ import annotations

import fcntl
import subprocess
from collections.abc import Iterator

import pytest
from seat_firmware_runner import ROOT, WASM, MicroPython


@pytest.fixture(scope="module")
def mpy() -> Iterator[MicroPython]:
    if not WASM.exists():
        # Parallel workers (pytest-xdist) must not run npm in the same folder at once.
        lock_path = ROOT / "hardware" / ".setup-firmware.lock"
        with lock_path.open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not WASM.exists():
                subprocess.run(["bash", str(ROOT / "scripts" / "setup-firmware.sh")], check=True)
    runner = MicroPython()
    assert runner.banner["ready"].startswith("micropython ")
    yield runner
    runner.close()
