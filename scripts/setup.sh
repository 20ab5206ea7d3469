#!/bin/sh
# setup.sh - installs what stoke needs to build and test on Debian 12, with
# apt (and npm for the browser tests' driver and the format tests' readers),
# and only what is missing.
# Safe to run again. Run as root, or as a user who may use sudo.
set -eu
cd "$(dirname "$0")/.."

packages="build-essential cmake pkg-config libunwind-dev libelf-dev libdw-dev
libzstd-dev zstd libiberty-dev elfutils binutils g++ python3 chromium
protobuf-c-compiler libprotobuf-c-dev golang-github-google-pprof-dev zlib1g-dev
libcurl4-openssl-dev protobuf-compiler golang-go
wrk apache2-utils nginx-light redis-server clang libclang-rt-14-dev
perl git sqlite3 xz-utils bc redis-tools"  # the last line: tests/reliability

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
# Node.js may come from elsewhere than Debian (with npm inside): ask for the
# commands, not the packages.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"

if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "setup: installing:$missing" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        $missing >&2
fi

# autocannon, the load tool of the Node.js example (examples/node) and its test.
if [ ! -d examples/node/node_modules/autocannon ]; then
    echo "setup: installing autocannon into examples/node/node_modules" >&2
    npm ci --prefix examples/node --no-audit --no-fund >&2
fi

# The browser tests drive Debian's chromium with playwright-core (no browser download);
# bench/viewer_bench.mjs compares the report with d3-flame-graph.
if [ ! -d viewer/node_modules/playwright-core ] || [ ! -d viewer/node_modules/d3-flame-graph ]; then
    echo "setup: installing playwright-core and d3-flame-graph into viewer/node_modules" >&2
    npm ci --prefix viewer --no-audit --no-fund >&2
fi

# The format tests read stoke's files with speedscope's schema and a pprof
# decoder from npm (tests/formats/package.json).
if [ ! -d tests/formats/node_modules/speedscope ]; then
    echo "setup: installing the format tests' readers into tests/formats/node_modules" >&2
    npm ci --prefix tests/formats --no-audit --no-fund >&2
fi
