# checks.sh - the small check vocabulary of stoke's shell test scripts,
# sourced by them (tests/cli/*.sh, tests/formats/folded_test.sh,
# tests/heap/heap_cli_test.sh).
# The script sets $stoke and works in its own directory; it ends with
# checks_summary, which prints "N passed, N failed" and fails if any did.

passed=0
failed=0

check() { # NAME, then a command that succeeds when the check holds
    name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $name" >&2
    fi
}

status_is() { [ "$status" -eq "$1" ]; }
err_has() { grep -q -- "$1" err; }

run() { # runs stoke with the arguments; sets status, leaves out and err
    "$stoke" "$@" >out 2>err
    status=$?
}

checks_summary() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
