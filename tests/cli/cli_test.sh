#!/bin/sh
# cli_test.sh - end-to-end checks of the stoke command's behaviour as a user
# meets it: options and usage errors, exit statuses, pass-through of the
# command's input and output, signals, the output directory, and report.
# Runs the real agent on the bundled example. Prints "N passed, N failed".
#
# usage: cli_test.sh STOKE CPU_BURN
set -u
. "$(dirname "$0")/../lib/checks.sh"
stoke=$(realpath "$1") && cpu_burn=$(realpath "$2") || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# --- usage --------------------------------------------------------------
run --version
check "--version exits 0" status_is 0
check "--version names stoke" grep -q '^stoke ' out
run
check "no arguments is a usage error" status_is 2
run frobnicate
check "unknown command exits 2" status_is 2
check "unknown command is named" err_has "'frobnicate'"
run record --bogus -- true
check "unknown option exits 2" status_is 2
check "unknown option is named" err_has "'--bogus'"
run record -F 0 -- true
check "bad -F exits 2" status_is 2
check "bad -F is named" err_has "-F"
run record --clock gpu -- true
check "bad --clock exits 2" status_is 2
run record
check "record without a command exits 2" status_is 2
run report
check "report without a path exits 2" status_is 2
run record -P '  ' -- true
check "an empty -P exits 2" status_is 2
check "an empty -P is named" err_has "-P/--load needs a command"
run record --port 70000 -- true
check "a bad --port exits 2" status_is 2
check "a bad --port is named" err_has "--port '70000'"
run record --wait soon -- true
check "a bad --wait exits 2" status_is 2
check "a bad --wait is named" err_has "--wait 'soon' is not a duration"
run record --duration 0 -- true
check "--duration 0 exits 2" status_is 2
run top
check "top without a path exits 2" status_is 2
run top no-such-dir-for-stoke
check "top of a missing path exits 1" status_is 1
run record --help
check "record --help exits 0" status_is 0
check "record --help lists --collect-only" grep -q -- '--collect-only' out

# --- commands that cannot run --------------------------------------------
run record -o nocmd -- no-such-command-for-stoke
check "missing command exits 127" status_is 127
check "missing command message" err_has "cannot run 'no-such-command-for-stoke': No such file or directory"
check "missing command creates no output dir" test ! -e nocmd
touch plainfile
run record -o plainfile/sub -- true
check "unusable output dir exits 1" status_is 1
check "unusable output dir is named" err_has "plainfile/sub"
mkdir -p alone/bin
cp "$stoke" alone/bin/stoke
alone/bin/stoke record -o noagent -- true >out 2>err
status=$?
check "missing agent exits 1" status_is 1
check "missing agent message" err_has "agent not found at"

# --- a recording ----------------------------------------------------------
"$cpu_burn" 2 >bare.out
run record -o rec -- "$cpu_burn" 2
check "record exits with the command's status" status_is 0
check "the command's stdout passes through" cmp -s out bare.out
check "one trace for the example" test "$(ls rec/cpu_burn.*.stoke | wc -l)" -eq 1
check "flamegraph.html is written" test -s rec/flamegraph.html
check "summary says where the report is" err_has "rec/flamegraph.html"
check "summary names the hottest function" err_has "score_positions"
run top rec
check "top exits 0" status_is 0
check "top prints self and total" grep -q 'self   total' out
check "top names the hottest function" grep -q 'score_positions' out
run record -o rec -- "$cpu_burn" 1
check "recording again replaces the earlier traces" test "$(ls rec/*.stoke | wc -l)" -eq 1

echo "through stdin" | "$stoke" record -o stdin -- cat >out 2>err
check "stdin passes through" grep -q "through stdin" out

run record -o exit7 -- sh -c 'exit 7'
check "the command's exit code is stoke's" status_is 7
run record -o killed -- sh -c 'kill -TERM $$'
check "death by a signal is 128 + signal" status_is 143

"$stoke" record -o term -- sleep 30 >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
status=$?
check "SIGTERM to stoke reaches the command" status_is 143

run record -o collect --collect-only -- "$cpu_burn" 1
check "--collect-only exits 0" status_is 0
check "--collect-only writes traces" test "$(ls collect/*.stoke | wc -l)" -ge 1
check "--collect-only writes no report" test ! -e collect/flamegraph.html

mkdir default && (cd default && "$stoke" record -- true >/dev/null 2>&1)
check "default output dir is stoke-<pid>" test "$(ls -d default/stoke-[0-9]* | wc -l)" -eq 1

if [ -x /sbin/ldconfig ] && ! readelf -l /sbin/ldconfig 2>/dev/null | grep -q interpreter; then
    run record -o static -- /sbin/ldconfig --version
    check "a static program still runs" status_is 0
    check "a static program is warned about" err_has "statically linked"
fi

# --- report ---------------------------------------------------------------
rm -f rec/flamegraph.html
run report rec
check "report of a directory exits 0" status_is 0
check "report writes flamegraph.html inside the directory" test -s rec/flamegraph.html
run report rec/cpu_burn.*.stoke -o one.html
check "report of one trace to -o" test -s one.html
run report rec --folded
check "folded report exits 0" status_is 0
check "folded lines are 'stack count'" test "$(grep -cvE '^.+ [0-9]+$' out)" -eq 0
check "folded stacks hold the recursion" grep -q 'descend;descend;score_positions ' out
mv out folded.stdout
run report rec --folded -o folded.txt
check "folded report to -o" cmp -s folded.stdout folded.txt
run report does-not-exist
check "missing path exits 1" status_is 1
check "missing path is named" err_has "does-not-exist"
mkdir empty
run report empty
check "directory without traces exits 1" status_is 1
echo "not a trace" >junk.stoke
run report junk.stoke
check "unreadable trace exits 1" status_is 1
check "unreadable trace is named" err_has "junk.stoke"

checks_summary
