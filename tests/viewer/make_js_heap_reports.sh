#!/bin/sh
# make_js_heap_reports.sh - the reports the JavaScript heap browser test
# opens, made by stoke from node's own snapshots (leak_program.js: 20,000
# Leak objects, each holding a string, made between two snapshots):
#   snapshot.html  stoke report of the later snapshot alone
#   diff.html      stoke diff of the two snapshots
#   mixed.html     a recording of cpu_burn with --heap and the later snapshot
#                  copied into it: CPU, native heap and JS heap tabs
# and, as ground truth, the stacks each report's data holds, as folded
# stacks read back by viewer/tools/html_to_folded.py: snapshot.value0.folded
# (bytes), snapshot.value1.folded (objects), diff.value0.folded (before) and
# diff.value1.folded (after).
#
# usage: make_js_heap_reports.sh STOKE NODE LEAK_PROGRAM CPU_BURN PYTHON HTML_TO_FOLDED OUTDIR
set -eu
stoke=$1 node=$2 leak=$3 cpu_burn=$4 python=$5 to_folded=$6 out=$7
rm -rf "$out"
mkdir -p "$out"
"$node" "$leak" "$out/before.heapsnapshot" "$out/after.heapsnapshot" >/dev/null
"$stoke" report "$out/after.heapsnapshot" -o "$out/snapshot.html" 2>/dev/null
"$stoke" diff "$out/before.heapsnapshot" "$out/after.heapsnapshot" -o "$out/diff.html" 2>/dev/null
"$stoke" record --heap -o "$out/recording" -- "$cpu_burn" 1 >/dev/null 2>&1
cp "$out/after.heapsnapshot" "$out/recording/"
"$stoke" report "$out/recording" -o "$out/mixed.html" 2>/dev/null
for report in snapshot diff; do
  for value in 0 1; do
    "$python" "$to_folded" "$out/$report.html" --value $value >"$out/$report.value$value.folded"
  done
done
