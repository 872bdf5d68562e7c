# stdlib_sets.sh — sourced by the results folders' build.sh scripts that emit graphs with several
# stdlibs side by side (for an A/B run on the GPU machine): `old`, stdlib/ as committed at a git
# revision; `new`, stdlib/ as it is in the tree; and variants, copies of the tree's that a script
# edits. Each set's stdlib is /tmp/TAG-stdlib/SET; the emitted graphs go to .devcarry/TAG/SET/.
#
#   source "$(git rev-parse --show-toplevel)/bench/stdlib_sets.sh"
#   stdlib_sets_init TAG REV            # empties .devcarry/TAG, /tmp/TAG-stdlib/old from REV
#   d=$(stdlib_set TAG SET [FROM])      # a copy of the tree's stdlib/ for SET (not `old`), or of set FROM's
#   stdlib_rule FILE OLD NEW            # replaces OLD, which must occur once in FILE (a variant's edit)
#   stdlib_set_changed TAG SET          # exits where variant SET left the stdlib as the tree has it
#   stdlib_sets_emit TAG "SETS" GRAPH.hds ...   # hdsc: .devcarry/TAG/SET/GRAPH.cu, .devcarry/TAG/sets
stdlib_root=$(git rev-parse --show-toplevel)

stdlib_sets_init() {
    rm -rf "$stdlib_root/.devcarry/$1" "/tmp/$1-stdlib"
    mkdir -p "/tmp/$1-stdlib/old"
    git -C "$stdlib_root" archive "$2" stdlib | tar -x -C "/tmp/$1-stdlib/old" --strip-components=1
}

stdlib_set() {
    local d=/tmp/$1-stdlib/$2 from=$stdlib_root/stdlib
    [[ -z ${3:-} ]] || from=/tmp/$1-stdlib/$3
    mkdir -p "$d"
    cp "$from"/*.hds "$d/"
    echo "$d"
}

stdlib_rule() {
    python3 - "$@" <<'PY'
import sys
p, a, b = sys.argv[1:]
s = open(p).read()
assert s.count(a) == 1, a
open(p, "w").write(s.replace(a, b))
PY
}

stdlib_set_changed() {
    [[ $2 == new ]] || ! diff -rq "/tmp/$1-stdlib/$2" "$stdlib_root/stdlib" >/dev/null ||
        { echo "set $2 changed nothing" >&2; exit 1; }
}

stdlib_sets_emit() {
    local tag=$1 sets=$2 f set pid pids=()
    shift 2
    for set in $sets; do
        mkdir -p "$stdlib_root/.devcarry/$tag/$set"
    done
    for f in "$@"; do
        for set in $sets; do
            "$stdlib_root/build/hdsc" "$f" -I "/tmp/$tag-stdlib/$set" \
                -o "$stdlib_root/.devcarry/$tag/$set/$(basename "$f" .hds).cu" &
            pids+=($!)
        done
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || { echo "hdsc failed" >&2; exit 1; }
    done
    echo "$sets" >"$stdlib_root/.devcarry/$tag/sets"
    ls "$stdlib_root/.devcarry/$tag"
}
