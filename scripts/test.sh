#!/bin/sh
# test.sh - the README's second command, and what CI runs: installs what
# stoke needs (scripts/setup.sh), builds it into build/ and runs every test
# through ctest.
set -eu
cd "$(dirname "$0")/.."

sh scripts/setup.sh
cmake -S . -B build
cmake --build build -j2
ctest --test-dir build --output-on-failure -j2
