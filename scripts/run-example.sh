#!/bin/sh
# run-example.sh - the README's first command: installs what stoke needs
# (scripts/setup.sh), builds it into build/, profiles the bundled example
# (examples/cpu_burn.c) and says where the flame graph is.
set -eu
cd "$(dirname "$0")/.."

sh scripts/setup.sh
cmake -S . -B build
cmake --build build -j2
build/bin/stoke record -o stoke-example -- build/bin/cpu_burn
echo
echo "run-example: open $(pwd)/stoke-example/flamegraph.html in a browser"
