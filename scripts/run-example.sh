#!/bin/sh
# run-example.sh - the README's first command: installs what stoke needs
# (scripts/setup.sh), builds it into build/, profiles the bundled example
# HTTP server (examples/http_server.c) under wrk in one command and says
# where the flame graph is. examples/README.md goes on from there.
set -eu
cd "$(dirname "$0")/.."

sh scripts/setup.sh
cmake -S . -B build
cmake --build build -j2
build/bin/stoke record -o stoke-example \
    -P 'wrk -t2 -c20 -d5s http://127.0.0.1:$PORT/' -- build/bin/http_server
echo
echo "run-example: open $(pwd)/stoke-example/flamegraph.html in a browser"
