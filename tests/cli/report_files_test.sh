#!/bin/sh
# report_files_test.sh - the files stoke report writes are safe to create and
# to open: names from binaries (here JIT names from a perf map, which any
# program may write) cannot break a folded line, the HTML page or the JSON
# formats, and report files are created mode 0600, never through a symbolic
# link and never half-written. No agent: make_trace writes the snapshot.
# Prints "N passed, N failed" and fails when a check failed.
#
# usage: report_files_test.sh STOKE MAKE_TRACE VIEWER_TOOLS_DIR
set -u
. "$(dirname "$0")/../lib/checks.sh"
stoke=$(realpath "$1") && make_trace=$(realpath "$2") && tools=$(realpath "$3") || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# make_trace's heap snapshot names its code from perf-4242.map (0x100 bytes
# each); three of the names carry what a folded line, HTML, JSON and a
# terminal must escape.
hostile='leak;a</script><b>"q\'
tab_name=$(printf 'run\tnext')
escape_name=$(printf 'keep\033[31mc')
printf '%s\n' '7f0000010000 100 main' "7f0000010100 100 $tab_name" \
    "7f0000010200 100 $hostile" '7f0000010300 100 churn_b' "7f0000010400 100 $escape_name" \
    '7f0000010500 100 late_d' '7f0000010600 100 early_e' >perf-4242.map
snap=demo.4242.heap.1.20240101-000001.stoke
"$make_trace" heap "$snap" 1 signal || exit 1

# --- names in every output ----------------------------------------------------
out_is() { # the expected standard output, without its last newline
    printf '%s\n' "$1" >expected
    cmp -s expected out && return 0
    { echo "--- want:"; cat expected; echo "--- got:"; cat out; } >&2
    return 1
}
run report --folded "$snap"
check "folded: ';' in a name becomes ':', a tab a space; one line per stack" out_is \
"demo (4242);main;early_e 100
demo (4242);main;$escape_name 31457280
demo (4242);main;run next;churn_b 4096
demo (4242);main;run next;leak:a</script><b>\"q\\ 1048576"
sort out >folded.sorted

run report "$snap" -o report.html
check "html: written" status_is 0
check "terminal: the summary names the function with '?' for the escape character" \
    err_has 'keep?\[31mc'
check "terminal: no escape character reaches it" sh -c '! grep -q "$(printf "\033")" err'
check "html: the name never appears unescaped (no early end of the data block)" \
    sh -c '! grep -qF "</script><b>" report.html'
check "html: every name reads back as it was (same stacks as folded)" \
    sh -c "python3 '$tools/html_to_folded.py' report.html | sort | cmp -s - folded.sorted"

run report "$snap" --format speedscope -o report.speedscope.json
names_in_json() {
    python3 -c 'import json, sys
frames = json.load(open(sys.argv[1]))["shared"]["frames"]
names = {f["name"] for f in frames}
sys.exit(0 if {sys.argv[2], sys.argv[3]} <= names else 1)' "$@"
}
check "speedscope JSON: valid, with the names exactly as they were" \
    names_in_json report.speedscope.json "$hostile" "$tab_name"

# --- how report files are created -------------------------------------------------
mode_of() { stat -c %a "$1"; }
check "a report is created mode 0600" test "$(mode_of report.html)" = 600

ln -s "$work/victim" planted.html
run report "$snap" -o planted.html
check "a symbolic link at the output path: refused (1)" status_is 1
check "a symbolic link: the message names it and says why" err_has "'planted.html' is a symbolic link"
check "a symbolic link: its target is not created" test ! -e victim
check "a symbolic link: left as it was" test -L planted.html

printf 'earlier report\n' >earlier.html
ln earlier.html other_name.html
run report "$snap" -o earlier.html
check "an existing report is replaced" status_is 0
check "the replaced report is mode 0600" test "$(mode_of earlier.html)" = 600
check "the old file is replaced, not written into (a hard link keeps it)" \
    grep -qx 'earlier report' other_name.html

mkdir adir
run report "$snap" -o adir
check "a directory as the output file: refused (1)" status_is 1
check "a directory: the message says so" err_has "'adir' is a directory"

run report "$snap" --format folded -o /dev/null
check "a device (/dev/null) is written in place" status_is 0
check "/dev/null is still a character device" test -c /dev/null

check "no temporary file is left behind" sh -c '! ls | grep -q "\.html\.\|\.json\."'

checks_summary
