#!/bin/sh
# test.sh - the README's second command, and what CI runs: installs what
# stoke needs (scripts/setup.sh), builds it into build/ and runs every test
# through ctest (the fuzz targets for a bounded time included); then builds
# it again into build-asan/ with AddressSanitizer and UndefinedBehaviorSanitizer
# (STOKE_SANITIZE: the offline tools and tests, never the agent) and runs the
# whole suite there too. Both halves always run; each one's result is printed
# at the end, and the status is 0 only when both passed.
set -eu
cd "$(dirname "$0")/.."

sh scripts/setup.sh

# run_half NAME BUILD_DIR [CMAKE_OPTION...]: configure, build and test one
# half; adds "NAME (BUILD_DIR): <ctest's total line>" to the summary file.
# ctest's output is kept in BUILD_DIR/ctest.log.
run_half() {
    name=$1 dir=$2
    shift 2
    if cmake -S . -B "$dir" "$@" && cmake --build "$dir" -j2; then
        { ctest --test-dir "$dir" --output-on-failure -j2; echo $? > "$dir/ctest.status"; } |
            tee "$dir/ctest.log"
        [ "$(cat "$dir/ctest.status")" = 0 ] && status=0 || status=1
        total=$(grep -E 'tests passed|tests failed' "$dir/ctest.log" | tail -1)
        skipped=$(grep -c '(Skipped)' "$dir/ctest.log" || true)
        [ "$skipped" = 0 ] || total="$total ($skipped skipped, listed above)"
    else
        status=1 total="the build failed"
    fi
    echo "$name ($dir): ${total:-ctest printed no total}" >> "$summary"
    return $status
}

summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
plain=0 sanitized=0
run_half plain build || plain=1
run_half sanitized build-asan -DSTOKE_SANITIZE=ON || sanitized=1

echo
echo "test.sh summary:"
cat "$summary"
[ $plain = 0 ] && [ $sanitized = 0 ]
