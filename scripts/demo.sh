#!/usr/bin/env bash
# Sets everything up and runs the demo on embedded defaults: no broker, camera or device needed.
set -euo pipefail
source "$(dirname "$0")/bootstrap.sh"
cd "$ROOT"

ensure_venv bench
exec "$VENV/bin/domino-table" demo "$@"
