#!/usr/bin/env bash
# Sets everything up and runs the demo on embedded defaults: no broker, camera or device needed.
set -euo pipefail
source "$(dirname "$0")/bootstrap.sh"
cd "$ROOT"

# the demo needs only the core dependencies: no test or benchmark tools, no PyAV (OpenCV reads
# the video), and no bytecode compiled ahead (Python compiles what the demo imports)
ensure_venv "" --no-compile
exec "$VENV/bin/domino-table" demo "$@"
