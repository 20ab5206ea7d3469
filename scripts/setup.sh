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
wrk apache2-utils nginx-light redis-server clang libclang-rt-14-dev"
# Node's heap snapshots (.heapsnapshot: JSON) are read with YAJL's streaming parser.
packages="$packages libyajl-dev"
# The real programs and runtimes of tests/transparency.
packages="$packages perl git sqlite3 xz-utils bc redis-tools default-jdk-headless"
# The C library's debug info: reports name its internal functions
# (__libc_start_call_main, _int_malloc) instead of libc.so.6+0x... offsets.
packages="$packages libc6-dbg"

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

# npm_install DIR WHY: the packages of DIR/package-lock.json, exactly, into
# DIR/node_modules; again whenever the lockfile changed since the last time.
npm_install() {
    if ! cmp -s "$1/package-lock.json" "$1/node_modules/.stoke-installed-lock" 2>/dev/null; then
        echo "setup: installing $2 into $1/node_modules" >&2
        npm ci --prefix "$1" --no-audit --no-fund >&2
        cp "$1/package-lock.json" "$1/node_modules/.stoke-installed-lock"
    fi
}

# The Node.js example (examples/node: express, react, react-dom) and its load
# tool, autocannon; tests/cpu/test_node.py profiles it.
npm_install examples/node "the Node.js example's packages and autocannon"
# The browser tests drive Debian's chromium with playwright-core (no browser
# download; pinned to a release that runs on Debian 12's Node.js 18 as well as
# on newer ones); bench/viewer_bench.mjs compares the report with d3-flame-graph.
npm_install tests/viewer "playwright-core and d3-flame-graph"
# The format tests read stoke's files with speedscope's schema and a pprof
# decoder from npm (tests/formats/package.json).
npm_install tests/formats "the format tests' readers"
# The JS heap tests check stoke's numbers against DevTools' own heap snapshot
# code (tests/js_heap/package.json).
npm_install tests/js_heap "DevTools' heap snapshot code"
