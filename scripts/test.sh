#!/bin/sh
# test.sh - the README's second command, and what CI runs: installs what
# stoke needs (scripts/setup.sh), builds it into build/ and runs every test
# through ctest (the fuzz targets for a bounded time included); then builds
# it again into build-asan/ with AddressSanitizer and UndefinedBehaviorSanitizer
# (STOKE_SANITIZE: the offline tools and tests, never the agent) and runs the
# whole suite there too.
set -eu
cd "$(dirname "$0")/.."

sh scripts/setup.sh
cmake -S . -B build
cmake --build build -j2
ctest --test-dir build --output-on-failure -j2

cmake -S . -B build-asan -DSTOKE_SANITIZE=ON
cmake --build build-asan -j2
ctest --test-dir build-asan --output-on-failure -j2
