# The tools' command lines (tools/cli.h): each tool's --help names every
# option its parser's table takes (RFL_CLI_TABLE=1 prints the table), and
# the exit codes are the same everywhere: 2 for bad usage, 1 for bad input.
CL=$B/cli
mkdir -p "$CL"
CLI_TOOLS=""
for t in rfl-hw rfl-reduce rfl-plot rfl-probe rfl-check rfl-estimate rfl-report; do
  # only the tools on cli.h have the table
  grep -q '"cli.h"' tools/$t.c || continue
  [ -x build/$t ] || step "build $t" ${MAKE:-make} -s build/$t
  CLI_TOOLS="$CLI_TOOLS $t"
done

# cli_help TOOL: every option of the table appears in --help as a word
cli_help() {
  RFL_CLI_TABLE=1 build/$1 --help > "$CL/$1.table" || return 1
  build/$1 --help > "$CL/$1.help" || return 1
  [ -s "$CL/$1.table" ] || { echo "$1: empty option table"; return 1; }
  missing=0
  while read -r opt; do
    grep -qE -- "(^|[^a-z0-9-])$opt([^a-z0-9-]|\$)" "$CL/$1.help" || { echo "$1 --help lacks $opt"; missing=1; }
  done < "$CL/$1.table"
  return $missing
}
# cli_rc WANT TOOL ARGS...: the exit status
cli_rc() {
  want=$1; shift
  build/"$@" > "$CL/last.out" 2> "$CL/last.err"
  got=$?
  [ "$got" = "$want" ] || { echo "exit $got, want $want: $*"; cat "$CL/last.err"; return 1; }
}
for t in $CLI_TOOLS; do
  step "$t --help lists every option of its parser's table" cli_help $t
  step "$t: an unknown option is exit 2" cli_rc 2 $t --no-such-option
done
# an option without its value is bad usage (2)
step "rfl-hw --hw-file without its value is exit 2" cli_rc 2 rfl-hw --hw-file
step "rfl-reduce --top without its value is exit 2" cli_rc 2 rfl-reduce --top
step "rfl-plot --work without its value is exit 2" cli_rc 2 rfl-plot --hw a100 --work
step "rfl-probe --threads without its value is exit 2" cli_rc 2 rfl-probe --threads
# an unknown machine is bad input (1) in every tool that takes one
step "rfl-hw: an unknown machine is exit 1" cli_rc 1 rfl-hw no-such-gpu
step "rfl-reduce: an unknown machine is exit 1" cli_rc 1 rfl-reduce --hw no-such-gpu tests/data/micro-seed-raw.csv
step "rfl-plot: an unknown machine is exit 1" cli_rc 1 rfl-plot --hw no-such-gpu --ascii
step "rfl-probe: an unknown machine is exit 1" cli_rc 1 rfl-probe --hw no-such-gpu
step "rfl-estimate --batch without its value is exit 2" cli_rc 2 rfl-estimate resnet18 --batch
step "rfl-estimate: an unknown dtype is exit 2" cli_rc 2 rfl-estimate resnet18 --dtype fp7
step "rfl-estimate: --dtype tf32 is a math type" cli_rc 0 rfl-estimate resnet18 --dtype tf32
step "rfl-estimate: an unknown machine is exit 1" cli_rc 1 rfl-estimate resnet18 --hw no-such-gpu
step "rfl-estimate: an unknown model is exit 1" cli_rc 1 rfl-estimate no-such-model
# one table for the model and the LLM step: a tool that takes --phase takes
# every model option (tools/cli.h's cli_model_opts)
cli_model_table() {
  for o in --list --hf-config --onnx --dim --batch --res --dtype --mode --conv --phase --seq \
           --logits --weights --kv; do
    grep -qx -- "$o" "$CL/$1.table" || { echo "$1 takes --phase but not $o"; return 1; }
  done
}
for t in $CLI_TOOLS; do
  grep -qx -- --phase "$CL/$t.table" 2>/dev/null || continue
  step "$t: every model and LLM option beside --phase" cli_model_table $t
done
