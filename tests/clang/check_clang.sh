#!/usr/bin/env bash
# Checks that the compiler's sources also compile with clang (scripts/fuzz.sh builds the
# libFuzzer target with it; gcc accepts some things C++17 does not, such as a lambda
# capturing a structured binding): clang -fsyntax-only over every translation unit of
# the build's compile_commands.json. Exits 77 (skipped) without clang++.
#   check_clang.sh BUILD_DIR
set -uo pipefail
build=$1
clangxx=$(command -v clang++) || { echo "clang++ not found: skipped"; exit 77; }
python3 - "$build/compile_commands.json" "$clangxx" >"$build/clang_syntax_commands.txt" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if "/generated/" in e["file"]:
        continue  # ANTLR's generated parser: not ours
    args = shlex.split(e["command"])
    out = [sys.argv[2], "-fsyntax-only", "-Werror=c++20-extensions"]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
        elif a in ("-o", "-c", "-MF", "-MT"):
            skip = True
        elif a not in ("-MD",) and a != e["file"]:
            out.append(a)
    out.append(e["file"])
    print(shlex.join(out))
PY
fails=0
while read -r cmd; do
    if ! (cd "$build" && eval "$cmd") 2>"$build/clang_syntax.err"; then
        cat "$build/clang_syntax.err"
        fails=$((fails + 1))
    fi
done <"$build/clang_syntax_commands.txt"
echo "$(wc -l <"$build/clang_syntax_commands.txt") translation units checked with clang, $fails failed"
exit $((fails > 0))
