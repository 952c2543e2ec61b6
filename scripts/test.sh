#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: lint, strict types, tests.
set -euo pipefail
source "$(dirname "$0")/bootstrap.sh"
cd "$ROOT"

# poppler-utils: pdftoppm renders the marker sheet PDF in a test, as a printer would
ensure_apt mosquitto chromium openssl poppler-utils
ensure_venv dev
PY="$VENV/bin"
bash scripts/setup-firmware.sh

echo "==> ruff" >&2
"$PY/ruff" check .
# the tile reader is held to ruff's complexity rules
"$PY/ruff" check --select C90,PLR09 --config 'lint.mccabe.max-complexity=10' vision/recognition
"$PY/ruff" format --check .
echo "==> mypy --strict" >&2
"$PY/mypy"
echo "==> lint-imports (layer contracts, .importlinter)" >&2
"$PY/lint-imports"
echo "==> pytest" >&2
"$PY/pytest" -n "${PYTEST_WORKERS:-2}" "$@"
