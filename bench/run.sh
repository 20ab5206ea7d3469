#!/bin/sh
# run.sh - stoke's benchmark: runs stoke side by side with the profilers users
# would pick instead (perf record, gperftools, heaptrack), on the same workloads in the
# same run, interleaved, and prints medians and ratios as Markdown tables.
# Installs nothing; says what is missing (bench/README.md lists the packages).
#
#   bench/run.sh [--build DIR] [--rounds N] [--keep] [workload...]
set -eu
if ! command -v python3 >/dev/null 2>&1; then
    echo "bench: python3 not found; install the Debian package python3" >&2
    exit 1
fi
exec python3 -B "$(dirname "$0")/harness.py" "$@"
