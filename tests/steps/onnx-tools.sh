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
  # recurrent nets, einsum, unknown totals (fixtures: tests/onnx/make_ops.c)
  OPS=tests/onnx/ops
  ox_py() { # FILE PYTHON-EXPR over e (the JSON): exit 1 when false
    python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); ok=eval(sys.argv[2]); sys.exit(0 if ok else "false: " + sys.argv[2] + " in " + json.dumps({k: e.get(k) for k in ("batch", "input", "forward", "batch_axis")}))' "$1" "$2"
  }
  ox_lstm() { # LSTM(8, 16) over X [10, 1, 8], then Y_h x [16, 4]. A step:
    # mac 2 x 4H x (I + H) = 2 x 64 x 24 = 3,072; elementwise 4H x 3 (the
    # two products and two biases summed) + 18 H (gates, cell, output) =
    # 192 + 288 = 480. 10 steps: 30,720 mac, 35,520 FLOPs; head 2 x 16 x 4
    # = 128: forward 35,648 FLOPs, 30,848 mac; batch 1 (axis 1), not 10
    ox_rc 0 $EST --onnx $OPS/lstm.onnx --json || return 1
    ox_py "$OX/last.out" 'e["forward"]["flops"] == 35648 and e["forward"]["mac_flops"] == 30848 and e["batch"] == 1 and e["batch_axis"] == 1 and e["input"] == [10, 1, 8] and [l["op"] for l in e["layers"]][:2] == ["input", "linear"] and e["unknown_nodes"] == []' || return 1
    ox_rc 0 $EST --onnx $OPS/lstm.onnx --hw h100 || return 1
    grep -q "^forward          35.65 k FLOP (mac 30.85 k FLOP = 30,848)" "$OX/last.out" &&
      grep -q "memory-bound (AI" "$OX/last.out" && ! grep -q "at least" "$OX/last.out"
  }
  step "an LSTM: 35,648 FLOPs by hand, batch 1 on axis 1 (not the sequence)" ox_lstm
  ox_lstm_b8() {
    ox_rc 1 $EST --onnx $OPS/lstm.onnx --batch 8 && grep -q "axis 1 of input 'X'.* fixed at 1" "$OX/last.err"
  }
  step "--batch 8 on the LSTM's fixed batch: exit 1 naming axis 1 of X" ox_lstm_b8
  ox_gru() { # GRU(8, 16), seq 6, batch 4: a step 2 x 48 x 24 = 2,304 mac and
    # 48 + 14 x 16 = 272 more; 24 steps: 55,296 mac, 61,824 FLOPs
    ox_rc 0 $EST --onnx $OPS/gru-dyn.onnx --batch 4 --dim seq=6 --json &&
      ox_py "$OX/last.out" 'e["forward"]["flops"] == 61824 and e["forward"]["mac_flops"] == 55296 and e["batch"] == 4 and e["input"] == [6, 4, 8]'
  }
  step "a GRU, --batch 4 on axis 1, --dim seq=6: 61,824 FLOPs by hand" ox_gru
  ox_gru_nodim() {
    ox_rc 1 $EST --onnx $OPS/gru-dyn.onnx && grep -q "'seq' has no value (give it with --dim" "$OX/last.err" &&
      ! grep -q "desc" "$OX/last.err"
  }
  step "the GRU without --dim seq: exit 1, the tool's option named, no API name" ox_gru_nodim
  ox_einsum() { # bij,bjk->bik at b 2, i 3, j 4, k 5: 2 x 120 = 240
    ox_rc 0 $EST --onnx $OPS/einsum.onnx --batch 2 --json &&
      ox_py "$OX/last.out" 'e["forward"]["flops"] == 240 and e["forward"]["mac_flops"] == 240'
  }
  step "an Einsum bij,bjk->bik: 2 x the index sizes' product" ox_einsum
  ox_unknown_null() { # conv 2 x 4 x 3 x 9 x 64 = 13,824, relu 4 x 64 = 256 known
    ox_rc 0 $EST --onnx tests/onnx/bad/unknown-op-shaped.onnx --hw h100 --json &&
      ox_py "$OX/last.out" 'e["forward"]["flops"] is None and e["forward"]["mac_flops"] is None and e["forward"]["flops_known"] == 14080 and e["forward"]["mac_flops_known"] == 13824 and e["unknown_nodes"] == ["fancy_1"] and e["bound"] is None and e["predicted_time_s"] is None and e["predicted_time_known_s"] > 0 and e["layers"][2]["forward_flops"] is None and e["layers"][2]["op"] is None' || return 1
    ox_rc 0 $EST --onnx tests/onnx/bad/unknown-op-shaped.onnx --hw h100 &&
      grep -q "^forward          at least 14.08 k FLOP" "$OX/last.out" &&
      grep -q "whole model    at least .*the bound is unknown" "$OX/last.out" && ! grep -q -- "-bound (AI" "$OX/last.out"
  }
  step "an op without a FLOP rule: totals null / 'at least', no bound or time stated" ox_unknown_null
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
  ox_report_dim() { # rfl-report takes --dim, as its message says
    ox_rc 1 build/rfl-report --onnx tests/onnx/ops/gru-dyn.onnx --hw h100 --mode infer -o "$OX/rep2" &&
      grep -q "give it with --dim" "$OX/last.err" &&
      ox_rc 0 build/rfl-report --onnx tests/onnx/ops/gru-dyn.onnx --dim seq=6 --hw h100 --mode infer -o "$OX/rep2"
  }
  step "rfl-report --onnx with a symbolic seq: --dim seq=6" ox_report_dim
  ox_report_unknown() { # an op without a FLOP rule: no bound or time as if complete
    ox_rc 0 build/rfl-report --onnx tests/onnx/bad/unknown-op-shaped.onnx --hw h100 --mode infer -o "$OX/rep3" &&
      grep -q "FLOPs *>= 14.08 kFLOP" "$OX/last.out" && grep -q "bound (whole model) *unknown" "$OX/last.out" &&
      python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["models"][0]; e=m["estimate"]; h=m["machines"][0]; sys.exit(not (e["flops"] is None and e["flops_known"] == 14080 and h["bound"] is None and h["predicted_time_s"] is None and h["predicted_time_known_s"] > 0))' "$OX/rep3/report.json"
  }
  step "rfl-report: unknown FLOPs are '>=' and null, the bound unknown" ox_report_unknown
fi
