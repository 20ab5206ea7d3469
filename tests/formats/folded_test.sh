#!/bin/sh
# folded_test.sh - `stoke report` and `stoke diff` on folded stacks written
# by other tools (perf script | stackcollapse-perf.pl --kernel, py-spy
# record --format raw, async-profiler's collapsed output: the files the
# folded fuzz target starts from, tests/fuzz/corpus/folded/): the
# stacks, counts, annotations, files and lines they hold come out exactly,
# in folded text and in the HTML report, and each kind of malformed line is
# refused with its file and line number. Prints "N passed, N failed".
#
# usage: folded_test.sh STOKE VIEWER_TOOLS
set -u
. "$(dirname "$0")/../lib/checks.sh"
fixtures=$(realpath "$(dirname "$0")/../fuzz/corpus/folded")
stoke=$(realpath "$1") && tools=$(realpath "$2") || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$fixtures"/perf.folded "$fixtures"/pyspy.folded "$fixtures"/async.folded .

out_is() { printf '%s\n' "$1" | cmp -s - out; }
html_stacks_are() { # HTML: its stacks, summed by names (frames of one name
    # at different lines are apart in the report), equal the file expected
    python3 "$tools/html_to_folded.py" "$1" | python3 -c '
import collections, sys
sums = collections.Counter()
for line in sys.stdin:
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    sums[stack] += int(count)
print("".join(f"{s} {n}\n" for s, n in sorted(sums.items())), end="")' | cmp -s - expected
}

# --- each dialect, as folded text and as HTML ------------------------------
cat >perf.expected <<'EOF'
server;[unknown];__libc_start_main;main;event_loop;epoll_wait;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_epoll_wait 5
server;[unknown];__libc_start_main;main;event_loop;handle_request;parse_header 120
server;[unknown];__libc_start_main;main;event_loop;handle_request;parse_header;memchr 30
server;[unknown];__libc_start_main;main;event_loop;handle_request;write_reply;__GI___libc_write;entry_SYSCALL_64_after_hwframe;do_syscall_64;ksys_write 45
swapper;secondary_startup_64;cpu_startup_entry;do_idle 200
EOF
cat >pyspy.expected <<'EOF'
<module>;main;serve;handle;parse 71
<module>;main;serve;handle;render 39
<module>;main;serve;poll 20
EOF
cat >async.expected <<'EOF'
java/lang/Thread.run;org/example/Server.loop;Unsafe_Park;__pthread_cond_wait;futex_wait 30
java/lang/Thread.run;org/example/Server.loop;org/example/Server.handle;java/util/HashMap.get 17
java/lang/Thread.run;org/example/Server.loop;org/example/Server.handle;org/example/Codec.decode 12
EOF
for tool in perf pyspy async; do
    run report $tool.folded --folded
    check "$tool: folded to folded exits 0" status_is 0
    check "$tool: stacks and counts" cmp -s out $tool.expected
    run report $tool.folded -o $tool.html
    check "$tool: HTML report exits 0" status_is 0
    LC_ALL=C sort $tool.expected >expected
    check "$tool: the HTML holds the same stacks" html_stacks_are $tool.html
done
run report perf.folded
check "default report goes beside the folded file" test -s flamegraph.html

# Frame details the annotations and py-spy's places carry into the report.
frame_facts() { # HTML NAME: prints "module|file|line|kind|inlined" of each frame of that name
    python3 -B - "$tools" "$1" "$2" <<'EOF'  # -B: no __pycache__ in the source tree
import sys
sys.path.insert(0, sys.argv[1])
from report_data import load_report
data = load_report(sys.argv[2])
s, f = data["strings"], data["frames"]
for i, name in enumerate(f["name"]):
    if s[name] == sys.argv[3]:
        print(f"{s[f['module'][i]]}|{s[f['file'][i]]}|{f['line'][i]}|{f['kind'][i]}|{f['inlined'][i]}")
EOF
}
facts_are() { [ "$(frame_facts "$1" "$2" | sort | tr '\n' ' ')" = "$3" ]; }
check "py-spy place: file and line" facts_are pyspy.html parse "|proto/parse.py|12|0|0 "
check "py-spy: one frame per line of a function" facts_are pyspy.html handle "|server.py|52|0|0 |server.py|55|0|0 "
check "py-spy place without a line" facts_are pyspy.html poll "|select.py|0|0|0 "
check "perf _[k]: kernel code" facts_are perf.html ksys_write "[kernel]||0|1|0 "
check "perf [unknown]: unknown kind" facts_are perf.html "[unknown]" "||0|4|0 "
check "async-profiler _[i]: JIT, inlined" facts_are async.html java/util/HashMap.get "||0|3|1 "
check "async-profiler _[0] and _[1]: one JIT frame" facts_are async.html org/example/Codec.decode "||0|3|0 "

# --- malformed input ---------------------------------------------------------
bad_line() { # NAME CONTENT MESSAGE: a file of one good line and one bad line
    printf 'main;ok 1\n%s\n' "$2" >"$1.folded"
    run report "$1.folded" -o "$1.html"
    check "$1: exits 1" status_is 1
    check "$1: names file and line" err_has "$1.folded:2: $3"
    check "$1: writes no report" test ! -e "$1.html"
}
bad_line no_count 'main;foo' "does not end with a blank and a count"
bad_line only_count '42' "has a count but no stack"
bad_line fraction 'main;x 1.5' "does not end with a blank and a count"
bad_line negative 'main;x -3' "does not end with a blank and a count"
bad_line glued 'main;x12' "does not end with a blank and a count"
bad_line huge 'main;x 99999999999999999999' "the count is too large"
printf 'main;ok 1\nmain;\000x 3\n' >nul.folded
run report nul.folded
check "NUL byte: exits 1" status_is 1
check "NUL byte: not text" err_has "nul.folded:2: holds a NUL byte"
printf 'a 1\nb\nc\n\nd 2\ne\n' >several.folded
run report several.folded
check "several bad lines: the first, and how many more" err_has "several.folded:2: .* (and 2 more malformed lines)"
printf '# only a comment\n\n   \n' >empty.folded
run report empty.folded
check "no stacks: exits 1" status_is 1
check "no stacks: says so" err_has "'empty.folded' holds no stacks"
run report perf.folded --measure live-bytes
check "--measure on folded stacks exits 1" status_is 1
check "--measure on folded stacks says why" err_has "needs a heap snapshot"

# --- diff ------------------------------------------------------------------
printf 'main;a 10\nmain;b 5\n' >before.folded
printf 'main;a 4\nmain;c 7 \n' >after.folded
run diff before.folded after.folded --folded --absolute
check "diff of folded stacks exits 0" status_is 0
check "diff of folded stacks: before and after per stack" out_is "main;a 10 4
main;b 5 0
main;c 0 7"
run diff before.folded after.folded --folded
check "diff of folded stacks, normalised: after (11) scaled to before's 15" out_is "main;a 10 5
main;b 5 0
main;c 0 10"
run diff before.folded after.folded -o diff.html
check "diff HTML exits 0" status_is 0
check "diff HTML written" test -s diff.html
run diff before.folded no_count.folded
check "diff with a malformed side exits 1" status_is 1
check "diff names the bad line" err_has "no_count.folded:2:"

checks_summary
