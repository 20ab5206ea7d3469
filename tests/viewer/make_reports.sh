#!/bin/sh
# make_reports.sh - the reports the browser view tests open, each with the
# folded stacks of the same profile as ground truth: a real recording of
# the cpu_burn example by stoke (recorded.html, recorded.folded), and a
# report of folded stacks with hostile names (hostile.html, hostile.folded).
#
# usage: make_reports.sh STOKE CPU_BURN HOSTILE.folded OUTDIR
set -eu
stoke=$1 cpu_burn=$2 hostile=$3 out=$4
rm -rf "$out/recording"
mkdir -p "$out"
"$stoke" record -o "$out/recording" -- "$cpu_burn" 1 >/dev/null 2>&1
"$stoke" report "$out/recording" -o "$out/recorded.html" 2>/dev/null
"$stoke" report "$out/recording" --folded -o "$out/recorded.folded"
"$stoke" report "$hostile" -o "$out/hostile.html" 2>/dev/null
"$stoke" report "$hostile" --folded -o "$out/hostile.folded"
