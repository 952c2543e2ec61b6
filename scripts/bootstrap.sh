#!/usr/bin/env bash
# Shared set-up for scripts/demo.sh and scripts/test.sh: one virtual environment in .venv,
# the project installed into it (editable), and, for the tests, the system packages they use.
# Sourced, not run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${DOMINO_VENV:-$ROOT/.venv}"

pick_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "error: Python 3.11 or newer is needed (none found on PATH)" >&2
    return 1
}

# ensure_venv EXTRAS [PIP-OPTION...]: the project with those extras ("dev"), or with none ("").
ensure_venv() {
    local extras="${1:-}"
    shift || true
    if [ ! -x "$VENV/bin/python" ]; then
        echo "==> creating virtual environment in $VENV" >&2
        "$(pick_python)" -m venv "$VENV"
    fi
    local target="$ROOT" name="domino-table"
    if [ -n "$extras" ]; then
        target="$ROOT[$extras]"
        name="domino-table[$extras]"
    fi
    local stamp="$VENV/.installed-${extras:-core}"
    if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
        echo "==> installing $name into $VENV" >&2
        "$VENV/bin/python" -m pip install --quiet "$@" --upgrade pip >&2
        # compat mode puts the clone on sys.path with a .pth line: no import hook at start-up.
        "$VENV/bin/python" -m pip install --quiet "$@" -e "$target" \
            --config-settings editable_mode=compat >&2
        touch "$stamp"
    fi
}

# Install Debian packages the tests need, when missing. Only root can; under CI=true a missing
# package that cannot be installed is an error (no test may skip for a missing component).
ensure_apt() {
    local missing=()
    local pkg
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "==> apt-get install ${missing[*]}" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
    elif [ "${CI:-}" = "true" ]; then
        echo "error: CI needs Debian packages ${missing[*]} and cannot install them (not root)" >&2
        return 1
    else
        echo "warning: Debian packages ${missing[*]} are missing; tests that need them will skip" >&2
    fi
}
