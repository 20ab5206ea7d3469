#!/bin/sh
# heap_cli_test.sh - the stoke command on heap snapshots, with no agent:
# snapshots written by make_trace, a fake tracked process for `stoke heap`.
# Prints "N passed, N failed" and fails when a check failed.
#
# usage: heap_cli_test.sh SECTION STOKE MAKE_TRACE FAKE_TARGET
#   report   stoke report on snapshots and a --heap recording: --folded values
#            of every --measure exact, tabs, summary; stoke diff; bad input
#   heap     stoke heap PID against fake_heap_target.py and plain processes
#   record   the --heap options of stoke record: errors, and the variables
#            the command gets (this section runs `env` under the agent)
set -u
. "$(dirname "$0")/../lib/checks.sh"
section=$1
stoke=$(realpath "$2") && make_trace=$(realpath "$3") && fake=$(realpath "$4") || exit 1
# The report's data is packed: read it with the viewer's reader.
viewer_tools=$(realpath "$(dirname "$0")/../../viewer/tools")
work=$(mktemp -d)
fake_pid=
trap '[ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"

out_is() { # the expected standard output, without its last newline
    printf '%s\n' "$1" >expected
    cmp -s expected out && return 0
    { echo "--- want:"; cat expected; echo "--- got:"; cat out; } >&2
    return 1
}

# The names of make_trace's heap snapshot code (0x100 bytes each).
perf_map() {
    printf '%s\n' '7f0000010000 100 main' '7f0000010100 100 run' '7f0000010200 100 leak_a' \
        '7f0000010300 100 churn_b' '7f0000010400 100 keep_c' '7f0000010500 100 late_d' \
        '7f0000010600 100 early_e' >"$1/perf-4242.map"
}

snap1=demo.4242.heap.1.20240101-000001.stoke
snap2=demo.4242.heap.2.20240101-000002.stoke
make_snapshots() { # DIR
    perf_map "$1"
    "$make_trace" heap "$1/$snap1" 1 signal && "$make_trace" heap "$1/$snap2" 2 exit 3
}

# --- report ------------------------------------------------------------------
report_section() {
    make_snapshots .
    run report --folded "$snap2"
    check "report --folded of a snapshot exits 0" status_is 0
    check "report --folded of a snapshot: live bytes by default" out_is \
'demo (4242);main;keep_c 31457280
demo (4242);main;run;churn_b 4096
demo (4242);main;run;late_d 524288
demo (4242);main;run;leak_a 2097152'
    run report --folded --measure live-bytes "$snap1"
    check "--measure live-bytes" out_is \
'demo (4242);main;early_e 100
demo (4242);main;keep_c 31457280
demo (4242);main;run;churn_b 4096
demo (4242);main;run;leak_a 1048576'
    run report --folded --measure live-objects "$snap2"
    check "--measure live-objects" out_is \
'demo (4242);main;keep_c 30
demo (4242);main;run;churn_b 1
demo (4242);main;run;late_d 8
demo (4242);main;run;leak_a 32'
    run report --folded --measure alloc-bytes "$snap2"
    check "--measure alloc-bytes" out_is \
'demo (4242);main;keep_c 31457280
demo (4242);main;run;churn_b 419430400
demo (4242);main;run;late_d 524288
demo (4242);main;run;leak_a 2097152'
    run report --folded --measure alloc-objects "$snap2" -o folded.txt
    check "--measure alloc-objects into a file" cmp -s folded.txt - <<'EOF_FOLDED'
demo (4242);main;keep_c 30
demo (4242);main;run;churn_b 102400
demo (4242);main;run;late_d 8
demo (4242);main;run;leak_a 32
EOF_FOLDED

    run report "$snap2"
    check "HTML of a snapshot exits 0" status_is 0
    check "HTML of a snapshot next to it" test -s flamegraph.html
    check "summary: the snapshot's line" err_has "heap snapshot 2 (exit) in $snap2: 32.5 MiB live in 71 objects, sampled every 512.0 KiB, 3 allocations untracked"
    check "summary: largest stack in MiB" grep -q '^ *30.0 MiB  keep_c$' err
    check "summary: a stack in KiB" grep -q '^ *4.0 KiB  churn_b$' err
    run report "$snap2" --measure live-objects -o objects.html
    check "summary by --measure live-objects" grep -q '^ *30  keep_c$' err

    # a --heap recording: a CPU trace, two snapshots and the peak
    mkdir rec
    make_snapshots rec
    "$make_trace" valid rec/demo.4242.stoke
    "$make_trace" heap rec/demo.4242.heap.peak.stoke 2 peak
    run report rec/demo.4242.stoke --folded
    mv out cpu.folded
    run report rec --folded
    check "recording --folded is the CPU profile" cmp -s out cpu.folded
    check "the CPU profile is not empty" test -s cpu.folded
    run report rec --folded --measure alloc-bytes
    check "recording --folded --measure: the last snapshot" out_is \
'demo (4242);main;keep_c 31457280
demo (4242);main;run;churn_b 419430400
demo (4242);main;run;late_d 524288
demo (4242);main;run;leak_a 2097152'
    run report rec
    check "recording HTML exits 0" status_is 0
    python3 "$viewer_tools/html_to_folded.py" rec/flamegraph.html --tabs >tabs
    for tab in 'CPU' 'heap 1 (signal)' 'heap 2 (exit)' 'heap peak'; do
        check "recording HTML has tab \"$tab\"" awk -F '\t' -v t="$tab" '$2 == t { found = 1 } END { exit !found }' tabs
    done
    check "summary: CPU samples" err_has "17 samples"
    check "summary: one line per snapshot" test "$(grep -c 'heap snapshot' err)" -eq 3
    check "summary: largest stacks of the last snapshot" err_has "in snapshot 2 (exit) of demo (4242)"

    # diff
    run diff "$snap1" "$snap2" --folded
    check "diff --folded exits 0" status_is 0
    check "diff --folded: two counts, union of stacks" out_is \
'demo;main;early_e 100 0
demo;main;keep_c 31457280 31457280
demo;main;run;churn_b 4096 4096
demo;main;run;late_d 0 524288
demo;main;run;leak_a 1048576 2097152'
    run diff "$snap1" "$snap2" --folded --measure live-objects
    check "diff --folded --measure live-objects" out_is \
'demo;main;early_e 1 0
demo;main;keep_c 30 30
demo;main;run;churn_b 1 1
demo;main;run;late_d 0 8
demo;main;run;leak_a 16 32'
    run diff "$snap1" rec --folded
    check "diff with a recording: its last snapshot" out_is \
'demo;main;early_e 100 0
demo;main;keep_c 31457280 31457280
demo;main;run;churn_b 4096 4096
demo;main;run;late_d 0 524288
demo;main;run;leak_a 1048576 2097152'
    run diff "$snap1" "$snap2"
    check "diff HTML exits 0" status_is 0
    check "diff HTML next to AFTER" test -s diff.html
    check "diff HTML is differential" sh -c \
        "python3 '$viewer_tools/html_to_folded.py' diff.html --tabs | grep -q '(differential)'"
    check "diff summary: growth in KiB/MiB" grep -q '^ *+1.0 MiB  1.0 MiB -> 2.0 MiB (.*)  leak_a$' err
    check "diff summary: shrink" grep -q '^ *-100 B  100 B -> 0 B (.*)  early_e$' err
    check "diff summary: heaps compare as recorded" grep -q 'compared as recorded$' err
    run diff rec/demo.4242.stoke rec/demo.4242.stoke --folded
    check "diff of CPU traces exits 0" status_is 0
    check "diff of CPU traces: equal counts" test "$(awk '$(NF-1) != $NF' out | wc -l)" -eq 0
    check "diff of CPU traces: roots without pid" test "$(grep -vc '^demo;' out)" -eq 0

    # bad input
    run diff rec/demo.4242.stoke "$snap1"
    check "diff of a CPU trace and a snapshot exits 1" status_is 1
    check "diff names both kinds" err_has "cannot compare rec/demo.4242.stoke (a CPU trace) with $snap1 (a heap snapshot)"
    run diff "$snap1" rec/demo.4242.stoke --measure live-bytes
    check "diff --measure against a CPU trace exits 1" status_is 1
    check "diff --measure against a CPU trace says why" err_has "cannot compare"
    run diff "$snap1" missing.stoke
    check "diff with a missing file exits 1" status_is 1
    check "diff names the missing file" err_has "cannot open 'missing.stoke'"
    run diff "$snap1"
    check "diff with one path exits 2" status_is 2
    run diff "$snap1" "$snap2" --measure heap
    check "diff unknown measure exits 2" status_is 2
    check "diff names --measure" err_has "--measure 'heap'"
    run report --folded --measure bogus "$snap1"
    check "report unknown measure exits 2" status_is 2
    check "report names --measure and the choices" err_has "--measure 'bogus' is not one of live-bytes"
    run report rec/demo.4242.stoke --folded --measure live-bytes
    check "report --measure on a CPU trace exits 1" status_is 1
    check "report --measure on a CPU trace says why" err_has "holds no heap snapshot"
    run report missing.stoke
    check "report of a missing file exits 1" status_is 1
    "$make_trace" foreign foreign.stoke
    run diff foreign.stoke "$snap1"
    check "diff of a foreign file exits 1" status_is 1
    check "diff names the foreign file" err_has "foreign.stoke"
}

# --- heap ----------------------------------------------------------------------
start_fake() { # handle|ignore SIGNAL none|headeronly|INTERVAL:MINOR[:taken], then VAR=value of its environment
    mode=$1 signal=$2 trace=$3
    shift 3
    if [ "$trace" = none ]; then
        trace_command=none
    elif [ "$trace" = headeronly ]; then
        trace_command="$make_trace headeronly {path}"
    else
        version=${trace#*:}
        trace_command="$make_trace process {path} {pid} ${trace%%:*} $signal ${version%%:*}"
        case "$trace" in *:taken) trace_command="$trace_command taken" ;; esac
    fi
    rm -f fake.out
    # shellcheck disable=SC2086 # the trace command's words
    env "$@" "$fake" "$work" "$work/$snap1" "$mode" "$signal" $trace_command >fake.out 2>&1 &
    fake_pid=$!
    tries=0
    until grep -q ready fake.out 2>/dev/null || [ $tries -ge 100 ]; do
        sleep 0.05
        tries=$((tries + 1))
    done
}
stop_fake() {
    kill "$fake_pid" 2>/dev/null
    wait "$fake_pid" 2>/dev/null
    fake_pid=
}

heap_section() {
    make_snapshots .
    mkdir live
    # the settings come from the trace's PROCESS record (format 1.2), not the environment
    start_fake handle 10 1:2 STOKE_OUTPUT="$work/live"
    run heap "$fake_pid"
    check "stoke heap exits 0" status_is 0
    check "stoke heap prints the snapshot's path" \
        test "$(cat out)" = "$work/live/fake.$fake_pid.heap.1.20240101-000000.stoke"
    check "the snapshot is there" test -s "$(cat out)"
    run heap "$fake_pid"
    check "a second snapshot is a new file" \
        test "$(cat out)" = "$work/live/fake.$fake_pid.heap.2.20240101-000000.stoke"
    stop_fake

    start_fake handle 12 524288:2 STOKE_OUTPUT="$work/live" STOKE_HEAP_INTERVAL=1 STOKE_HEAP_SIGNAL=10
    run heap "$fake_pid"
    check "the trace's signal, not the environment's" status_is 0
    stop_fake

    start_fake ignore 10 1:2 STOKE_OUTPUT="$work/live"
    run heap --timeout 0.3 "$fake_pid"
    check "no snapshot in time exits 1" status_is 1
    check "no snapshot in time says so" err_has "no snapshot from process $fake_pid"
    stop_fake

    start_fake handle 0 1:2 STOKE_OUTPUT="$work/live"
    run heap "$fake_pid"
    check "--heap-signal none exits 1" status_is 1
    check "--heap-signal none says what to do" err_has "stoke_heap_dump()"
    stop_fake

    # the program took the signal over after the start: a HEAP_SIGNAL record of 0
    start_fake handle 10 1:2:taken STOKE_OUTPUT="$work/live"
    run heap "$fake_pid"
    check "a signal the program took over exits 1" status_is 1
    check "a signal the program took over is not sent" err_has "took the signal over"
    stop_fake

    start_fake handle 12 0:2 STOKE_OUTPUT="$work/live" STOKE_HEAP_INTERVAL=1
    run heap "$fake_pid"
    check "no heap tracking exits 1" status_is 1
    check "no heap tracking says so" err_has "process $fake_pid runs stoke's agent without heap tracking"
    stop_fake

    # a trace older than format 1.2 holds no heap settings: the environment's
    start_fake handle 10 1:1 STOKE_OUTPUT="$work/live" STOKE_HEAP_INTERVAL=1 STOKE_HEAP_SIGNAL=10
    run heap "$fake_pid"
    check "a 1.1 trace: the environment's settings" status_is 0
    stop_fake
    start_fake handle 12 1:1 STOKE_OUTPUT="$work/live"
    run heap "$fake_pid"
    check "a 1.1 trace without heap variables exits 1" status_is 1
    check "a 1.1 trace without heap variables says so" err_has "without heap tracking"
    stop_fake

    start_fake handle 12 none STOKE_OUTPUT="$work/live" STOKE_HEAP_INTERVAL=1
    run heap "$fake_pid"
    check "no trace open exits 1" status_is 1
    check "no trace open says so" err_has "process $fake_pid runs stoke's agent but has no trace open"
    stop_fake

    start_fake handle 12 headeronly STOKE_OUTPUT="$work/live" STOKE_HEAP_INTERVAL=1
    run heap "$fake_pid"
    check "a trace without its PROCESS record yet exits 1" status_is 1
    check "a trace without its PROCESS record yet says so" err_has "does not hold its heap settings yet"
    stop_fake

    sleep 30 &
    sleep_pid=$!
    plain=$sleep_pid
    run heap "$plain"
    check "a process without the agent exits 1" status_is 1
    check "a process without the agent is told" err_has "process $plain does not run with stoke's agent; start it with stoke record --heap"
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups "$stoke" heap "$plain" >out 2>err
        status=$?
    else
        run heap 1
        plain=1
    fi
    check "another user's process exits 1" status_is 1
    check "another user's process is refused" err_has "not allowed: process $plain belongs to another user"
    kill "$sleep_pid"

    run heap 32767999
    check "no such process exits 1" status_is 1
    check "no such process is named" err_has "no process 32767999"
    run heap abc
    check "a pid that is not a number exits 2" status_is 2
    run heap
    check "no pid exits 2" status_is 2
    run heap --timeout 0 1
    check "bad --timeout exits 2" status_is 2
    check "bad --timeout is named" err_has "--timeout"
}

# --- record ----------------------------------------------------------------------
heap_variables() { grep '^STOKE_HEAP_' out | sort | tr '\n' ' '; }

record_section() {
    run record --heap-interval 0 -- true
    check "--heap-interval 0 exits 2" status_is 2
    check "--heap-interval 0 is named" err_has "--heap-interval '0'"
    run record --heap-interval 12X -- true
    check "--heap-interval 12X exits 2" status_is 2
    run record --heap-interval 99999999999999999999 -- true
    check "an overflowing --heap-interval exits 2" status_is 2
    run record --heap-interval -5 -- true
    check "a negative --heap-interval exits 2" status_is 2
    run record --heap-signal BOGUS -- true
    check "bad --heap-signal exits 2" status_is 2
    check "bad --heap-signal is named" err_has "--heap-signal 'BOGUS'"
    run record --heap-signal KILL -- true
    check "--heap-signal KILL exits 2" status_is 2
    run record --heap-signal PROF -- true
    check "--heap-signal PROF exits 2" status_is 2
    run record --help
    check "record --help lists --heap-interval" grep -q -- '--heap-interval' out

    run record --collect-only -o r1 --heap -- env
    check "--heap: default interval and signal" \
        test "$(heap_variables)" = "STOKE_HEAP_INTERVAL=524288 STOKE_HEAP_SIGNAL=12 "
    run record --collect-only -o r2 --heap-interval 16K --heap-signal SIGUSR1 --heap-peak -- env
    check "--heap-interval 16K, --heap-signal SIGUSR1, --heap-peak" \
        test "$(heap_variables)" = "STOKE_HEAP_INTERVAL=16384 STOKE_HEAP_PEAK=1 STOKE_HEAP_SIGNAL=10 "
    run record --collect-only -o r3 --heap-interval 2m --heap-signal none -- env
    check "--heap-interval 2m, --heap-signal none" \
        test "$(heap_variables)" = "STOKE_HEAP_INTERVAL=2097152 STOKE_HEAP_SIGNAL=0 "
    run record --collect-only -o r4 --heap-interval 1 --heap-signal 34 -- env
    check "--heap-interval 1 (exact), a signal by number" \
        test "$(heap_variables)" = "STOKE_HEAP_INTERVAL=1 STOKE_HEAP_SIGNAL=34 "
    STOKE_HEAP_INTERVAL=1 STOKE_HEAP_PEAK=1 "$stoke" record --collect-only -o r5 -- env >out 2>err
    check "without --heap, inherited heap variables are removed" test -z "$(heap_variables)"
}

case $section in
report) report_section ;;
heap) heap_section ;;
record) record_section ;;
*) echo "unknown section $section" >&2; exit 2 ;;
esac
checks_summary
