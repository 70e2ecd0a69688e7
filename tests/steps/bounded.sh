# tests/steps/bounded.sh (sourced by tests/run.sh): every reader of every
# tool, given /dev/zero, a directory, a text file above its cap or a
# binary file, stops at once under a memory and a time limit: exit 1 and
# one line saying what the file is (binary, a directory, over the cap).
BD=$B/bounded
mkdir -p "$BD/adir"
# a 2 MiB text file without a NUL byte: above the 1 MiB config and
# machine-file caps; a "weights" file: an 8-byte length, then JSON
awk 'BEGIN { for (i = 0; i < 32768; i++) printf "%063d\n", i }' > "$BD/big.txt"
printf '\020\000\000\000\000\000\000\000{"__metadata__": {}}' > "$BD/weights.safetensors"
# a small ncu CSV for the readers that need one beside the file under test
CSV=tests/data/ncu_raw_small.csv
[ -f "$CSV" ] || CSV=$(ls tests/data/*.csv | head -n 1)

# bounded_run WANT_TEXT CMD...: exit 1 within 10 s and 1 GiB of address
# space, one line on stderr holding WANT_TEXT
bounded_run() {
  bd_want=$1; shift
  ( ulimit -v 1048576; timeout 10 "$@" ) > "$BD/out" 2> "$BD/err"; bd_rc=$?
  if [ $bd_rc != 1 ]; then echo "exit $bd_rc, want 1: $*"; head -3 "$BD/err"; return 1; fi
  grep -q -- "$bd_want" "$BD/err" || { echo "no '$bd_want' in: $(cat "$BD/err"): $*"; return 1; }
  [ "$(wc -l < "$BD/err")" -eq 1 ] || { echo "more than one line: $*"; cat "$BD/err"; return 1; }
}

# every reader, its file as @ (the cap'd text readers and the streams)
bounded_cmds() {
  cat <<CMDS
build/rfl-estimate --hf-config @
build/rfl-estimate --hf-config @ --layers
build/rfl-estimate resnet18 --hw-file @
build/rfl-estimate --onnx @
build/rfl-hw --hw-file @
build/rfl-plot --hw h100 --work @ -o $BD/x.png
build/rfl-plot --hw-file @ -o $BD/x.png
build/rfl-reduce @
build/rfl-reduce --hw-file @ $CSV
build/rfl-report --model resnet18 --hw h100 --ncu @ -o $BD/rep
build/rfl-report --model resnet18 --hw-file @ -o $BD/rep
build/rfl-report --onnx @ --hw h100 -o $BD/rep
build/rfl-report --hf-config @ --hw h100 -o $BD/rep
build/rfl-check @
build/rfl-check --assign @ --models resnet18 --hw h100 --batches 1 --seed 1 -o $BD/assign
build/rfl-check tests/data/check/correct.json --metadata @ --models alexnet --hw a100 --batches 1 --seed 1
CMDS
}

# the streams (ONNX, rfl-reduce's CSV) and the larger caps (profiles,
# works) are not tested with big.txt: it is within them
bounded_all() {
  bd_file=$1 bd_text=$2 bd_onnx=$3
  bounded_cmds > "$BD/cmds"
  while read -r line; do
    cmd=$(printf '%s\n' "$line" | sed "s|@|$bd_file|")
    w=$bd_text
    case $line in *--onnx*) w=$bd_onnx ;; esac
    case $line in *--onnx*|*"rfl-reduce @"*|*--ncu*|*--work*) [ "$bd_file" = "$BD/big.txt" ] && continue ;; esac
    # shellcheck disable=SC2086 # the command line splits into words
    step "bounded: $cmd" bounded_run "$w" $cmd
  done < "$BD/cmds"
}

if [ -x build/rfl-estimate ] && [ -x build/rfl-report ] && [ -x build/rfl-plot ] && \
   [ -x build/rfl-reduce ] && [ -x build/rfl-hw ] && [ -x build/rfl-check ]; then
  # NUL bytes: binary at once (the ONNX reader: no field 0 in a ModelProto)
  bounded_all /dev/zero "NUL byte" "byte 0:"
  bounded_all "$BD/adir" "is a directory" "is a directory"
  bounded_all "$BD/big.txt" "the cap" "-"
  bounded_all "$BD/weights.safetensors" "binary" "byte"
else
  bad "tests/steps/bounded.sh: build the tools first (make)"
fi
