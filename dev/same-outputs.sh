#!/bin/sh
# dev/same-outputs.sh BASE_BUILD NEW_BUILD - the tools' outputs of two
# builds side by side: every run below goes through both, and its stdout,
# stderr, exit status and written files are compared byte for byte. Prints
# one line per run that differs and the counts last. Run from the repo
# root of the new build (the data paths are relative to it); a refactoring
# that should change nothing shows "0 differ".
#   git worktree add /tmp/base main && make -C /tmp/base all
#   sh dev/same-outputs.sh /tmp/base/build build
set -u
A=$1 B=$2
T=$(mktemp -d)
runs=0 same=0 differ=0

# one RUN: the tool and its arguments; DIR, where it appears, becomes an
# output folder of its own for each build
one() {
    runs=$((runs + 1)); orig=$*
    for side in a b; do
        if [ $side = a ]; then bin=$A; else bin=$B; fi
        rm -rf "$T/$side"; mkdir -p "$T/$side/out"
        set -- $(printf '%s\n' $orig | sed "s#^DIR#$T/$side/out#")
        tool=$1; shift
        "$bin/$tool" "$@" > "$T/$side/stdout" 2> "$T/$side/stderr" < /dev/null
        echo $? > "$T/$side/rc"
        # the output folder's path is part of messages and report.json: name it alike
        grep -rlI "$T/$side/out" "$T/$side" | xargs -r sed -i "s#$T/$side/out#DIR#g"
    done
    if diff -r "$T/a" "$T/b" > /dev/null 2>&1; then same=$((same + 1))
    else differ=$((differ + 1)); echo "differs: $orig"; fi
}

hw_ids=$("$B/rfl-hw" --json 2>/dev/null | sed -n 's/.*"id": *"\([^"]*\)".*/\1/p' | sort -u)
[ -n "$hw_ids" ] || hw_ids="h100-sxm a100-sxm4-40gb v100-sxm2 t4 xeon-e5-2697-v2"
one rfl-hw; one rfl-hw --json
for h in $hw_ids; do one rfl-hw "$h"; one rfl-hw "$h" --json; done

zoo=$("$A/rfl-estimate" --list)
for m in $zoo; do
    one rfl-estimate "$m"; one rfl-estimate "$m" --json
    one rfl-estimate "$m" --mode train --hw h100 --batch 8
    one rfl-estimate "$m" --dtype fp16 --hw a100 --json
    one rfl-estimate "$m" --summary
done
for m in gpt2 llama-3.2-1b llama-3-8b qwen2.5-0.5b mistral-7b mixtral-8x7b llama-3-70b; do
    one rfl-estimate "$m" --phase prefill --seq 512 --hw h100
    one rfl-estimate "$m" --phase decode --seq 2048 --batch 4 --hw a100 --json
    one rfl-estimate "$m" --phase decode --seq 128 --weights int4 --kv fp8 --hw h100
    one rfl-estimate "$m" --layers --json
    one rfl-estimate "$m" --layers --phase prefill --seq 128 --hw h100
done
for f in tests/data/hf/*.json; do
    one rfl-estimate --hf-config "$f" --phase decode --seq 1024 --hw h100
    one rfl-estimate --hf-config "$f" --phase prefill --seq 256 --json
done
for f in tests/onnx/zoo/*.onnx tests/onnx/bad/*.onnx; do
    one rfl-estimate --onnx "$f"; one rfl-estimate --onnx "$f" --json --hw h100
done
for f in tests/data/*.csv tests/data/llm/*.csv examples/data/*.csv tests/bad/*; do
    one rfl-reduce "$f"; one rfl-reduce "$f" --json
    one rfl-reduce "$f" --by-name --top 5; one rfl-reduce "$f" --hw h100
done
one rfl-report -o DIR
one rfl-report --model resnet18,alexnet --hw v100,a100 --ncu resnet18=examples/data/resnet18-b1-train-seed-raw.csv --ncu alexnet=examples/data/alexnet-b1-train-full-raw.csv -o DIR
one rfl-report --model llama-3.2-1b,resnet18 --hw h100 --json
one rfl-plot --hw h100,a100 --point a:10:1e13 -o DIR/p.png
one rfl-plot --hw v100 --ascii --point x:4:2e12

echo "$runs runs: $same identical, $differ differ"
rm -rf "$T"
