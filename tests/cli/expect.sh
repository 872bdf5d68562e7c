# expect.sh — sourced by the CLI test scripts: `expect DESCRIPTION WANTED_RC PATTERN -- command...`
# runs the command, checks its exit code and that PATTERN (extended regex) occurs in its
# stdout or stderr, and counts failures in $fails. Needs $work (a scratch folder).
fails=0
ok=0
expect() {
    local what=$1 want=$2 pattern=$3
    shift 4
    "$@" >"$work/out" 2>"$work/err"
    local rc=$?
    if [[ $rc -ne $want ]] || ! grep -qE -- "$pattern" "$work/out" "$work/err"; then
        echo "FAIL: $what (exit $rc, wanted $want, pattern '$pattern')"
        sed 's/^/    /' "$work/out" "$work/err" | head -8
        fails=$((fails + 1))
    else
        ok=$((ok + 1))
    fi
}
