# ONNX part, tools side (issue 18): rfl-estimate --onnx and rfl-report --onnx
# end to end on the fixtures of tests/onnx/zoo/ (expected values from
# tests/data/torch-zoo.json, PyTorch's own counts, and the fixtures'
# MANIFEST.json, python-onnx's), standard input and a pipe, --batch/--dim,
# exit codes, and the bad files of tests/onnx/bad/ (EXPECTED.txt).
OX=$B/onnx
mkdir -p "$OX"
EST=build/rfl-estimate
ZOO=tests/onnx/zoo

# ox_rc WANT CMD...: exit status WANT; output in $OX/last.{out,err}
ox_rc() {
  want=$1; shift
  "$@" > "$OX/last.out" 2> "$OX/last.err"; got=$?
  [ "$got" = "$want" ] && return 0
  echo "exit $got, want $want: $*"; cat "$OX/last.err"; return 1
}

# ox_json FILE.json MODEL KEYS: the estimate's mac_flops and params against
# the zoo (batch from the JSON) and the manifest
ox_json() {
  python3 - "$@" <<'PY'
import json, sys
est, model = json.load(open(sys.argv[1])), sys.argv[2]
zoo = json.load(open('tests/data/torch-zoo.json'))['models'][model]
man = json.load(open('tests/onnx/zoo/MANIFEST.json'))[model]
b = est['batch']
want = zoo['b1']['forward'] * b
bad = []
if est['forward']['mac_flops'] != want: bad.append('mac_flops %d, zoo %d x %d = %d' % (est['forward']['mac_flops'], zoo['b1']['forward'], b, want))
if est['params'] != man['onnx_float_initializer_elements']: bad.append('params %d, manifest %d' % (est['params'], man['onnx_float_initializer_elements']))
if est['input'][0] != b: bad.append('input %s at batch %d' % (est['input'], b))
if bad: sys.exit('; '.join(bad))
PY
}

if [ -x "$EST" ]; then
  for m in alexnet resnet50 mobilenet_v3_small vit_b_16; do
    step "rfl-estimate --onnx $m.onnx --json: zoo mac_flops, manifest params" \
      sh -c "$EST --onnx $ZOO/$m.onnx --json > $OX/$m.json"
    step "rfl-estimate --onnx $m.onnx: figures" ox_json "$OX/$m.json" "$m"
  done
  step "rfl-estimate --onnx resnet18.onnx --batch 8 (dynamic axis)" \
    sh -c "$EST --onnx $ZOO/resnet18.onnx --batch 8 --json > $OX/r18b8.json"
  step "resnet18 at batch 8: 8 x the zoo's b1" ox_json "$OX/r18b8.json" resnet18
  step "rfl-estimate --onnx resnet18.onnx --dim batch=3" \
    sh -c "$EST --onnx $ZOO/resnet18.onnx --dim batch=3 --json > $OX/r18d3.json"
  step "resnet18 with --dim batch=3: 3 x b1" ox_json "$OX/r18d3.json" resnet18
  # inline weights through a pipe (one pass, every byte pushed) and through
  # standard input redirected from the file (seekable)
  step "squeezenet1_1 (inline weights) through a pipe" \
    sh -c "cat $ZOO/squeezenet1_1.onnx | $EST --onnx - --json > $OX/sq-pipe.json"
  step "squeezenet1_1 through a pipe: figures" ox_json "$OX/sq-pipe.json" squeezenet1_1
  step "squeezenet1_1 from standard input (a file)" \
    sh -c "$EST --onnx - --json < $ZOO/squeezenet1_1.onnx > $OX/sq-stdin.json"
  step "squeezenet1_1 from standard input: figures" ox_json "$OX/sq-stdin.json" squeezenet1_1
  ox_table() { # the human table: per-layer rows, totals, a predicted time
    ox_rc 0 $EST --onnx $ZOO/resnet18.onnx --hw h100 || return 1
    grep -q "input 'input' \[1, 3, 224, 224\]" "$OX/last.out" &&
      grep -q "predicted time" "$OX/last.out" && grep -q "3,628,146,688" "$OX/last.out" &&
      [ "$(grep -c conv "$OX/last.out")" -ge 20 ]
  }
  step "rfl-estimate --onnx resnet18.onnx --hw h100: table and time" ox_table
  ox_unknown() { # an op without a FLOP rule, its output shape in value_info
    ox_rc 0 $EST --onnx tests/onnx/bad/unknown-op-shaped.onnx || return 1
    grep -q "fancy_1 .* ? " "$OX/last.out" && grep -q "^note: 1 node without a FLOP rule (first: FancyNorm)" "$OX/last.out"
  }
  step "an op without a FLOP rule: counted on, FLOPs '?', named" ox_unknown
  ox_seq() { # x [batch, seq, 64] @ w [64, 32] at batch 2, seq 10: 2 x 2*10*64*32 = 81,920
    ox_rc 0 $EST --onnx tests/onnx/bad/seq-dim.onnx --batch 2 --dim seq=10 --json &&
      python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); sys.exit(e["forward"]["mac_flops"] != 81920 or e["params"] != 2048 or e["input"] != [2, 10, 64])' "$OX/last.out"
  }
  step "--dim seq=10: a symbolic dim besides the batch (81,920 mac FLOPs)" ox_seq
  ox_noseq() {
    ox_rc 1 $EST --onnx tests/onnx/bad/seq-dim.onnx && grep -q "seq.*--dim" "$OX/last.err"
  }
  step "a symbolic dim without --dim: exit 1 naming it" ox_noseq
  step "--batch 8 on a fixed batch-1 file: exit 1" ox_rc 1 $EST --onnx $ZOO/alexnet.onnx --batch 8
  step "--onnx with no file: exit 2" ox_rc 2 $EST --onnx
  step "--dim without =: exit 2" ox_rc 2 $EST --onnx $ZOO/resnet18.onnx --dim batch
  step "--dim with a bad value: exit 2" ox_rc 2 $EST --onnx $ZOO/resnet18.onnx --dim batch=-1
  step "a zoo model and --onnx: exit 2" ox_rc 2 $EST resnet18 --onnx $ZOO/resnet18.onnx
  step "--onnx missing file: exit 1" ox_rc 1 $EST --onnx $OX/no-such.onnx
  ox_bad() { # FILE PATTERN: exit 1, one line, matching
    f=$1 pat=$2
    ox_rc 1 $EST --onnx "tests/onnx/bad/$f" || return 1
    [ "$(wc -l < "$OX/last.err")" -eq 1 ] || { echo "more than one line:"; cat "$OX/last.err"; return 1; }
    err=$(cat "$OX/last.err")
    eval "case \$err in $pat) return 0 ;; esac"
    echo "'$err' does not match $pat"; return 1
  }
  ox_cut_payload() { # cut inside an inline weight that the reader seeks over
    head -c 3000000 $ZOO/squeezenet1_1.onnx > "$OX/sq-cut.onnx"
    ox_rc 1 $EST --onnx "$OX/sq-cut.onnx" && grep -q "sq-cut.onnx: byte 3000000: .*truncated" "$OX/last.err" &&
      { cat "$OX/sq-cut.onnx" | ox_rc 1 $EST --onnx -; } && grep -q "byte 3000000: " "$OX/last.err"
  }
  step "a file cut inside a skipped payload: exit 1 at byte 3000000 (file and pipe)" ox_cut_payload
  step "good.onnx (the bad files' base) reads" ox_rc 0 $EST --onnx tests/onnx/bad/good.onnx
  grep -v '^#' tests/onnx/bad/EXPECTED.txt | while read -r f pat; do
    [ -n "$f" ] && printf '%s\t%s\n' "$f" "$pat"
  done > "$OX/bad_list.txt"
  while IFS="$(printf '\t')" read -r f pat; do
    step "rfl-estimate --onnx tests/onnx/bad/$f: exit 1 naming $pat" ox_bad "$f" "$pat"
  done < "$OX/bad_list.txt"
else
  bad "tests/steps/onnx-tools.sh: $EST missing"
fi

if [ -x build/rfl-report ]; then
  ox_report() {
    rm -rf "$OX/rep"
    ox_rc 0 build/rfl-report --onnx $ZOO/resnet18.onnx --hw h100 --batch 2 --mode infer -o "$OX/rep" || return 1
    python3 - "$OX/rep/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
zoo = json.load(open('tests/data/torch-zoo.json'))['models']['resnet18']
m = [x for x in r['models'] if x['model'] == 'resnet18']
if not m: sys.exit('no model resnet18 (named after the file) in report.json')
# inference at batch 2: the forward mac FLOPs are the zoo's b2 (15 digits kept)
got, want = m[0]['estimate']['mac_flops'], zoo['b2']['forward']
if abs(got - want) > 1e-12 * want: sys.exit('mac_flops %r, zoo b2 %d' % (got, want))
if not any(x['predicted_time_s'] for x in m[0]['machines']): sys.exit('no predicted time')
PY
  }
  step "rfl-report --onnx resnet18.onnx --hw h100 -o DIR" ox_report
fi
