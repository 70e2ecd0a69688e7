# The step forecast (issue 38): hw_specs.h's RFL_HW_STEP_FORECASTS row states
# the held-out errors its terms give on tests/data/step/ (fit_step.py
# --check re-evaluates them; the full fit is python3 dev/capture/fit_step.py),
# and rfl-estimate --forecast gives every zoo model a GPU and step time.
for t in rfl-estimate; do
  [ -x build/$t ] || step "build $t" ${MAKE:-make} -s build/$t
done
if command -v python3 > /dev/null 2>&1; then
  step "step forecast: hw_specs.h's Hopper row states the held-out errors its terms give" \
    sh -c 'python3 dev/capture/fit_step.py --check hw_specs.h > "$0/step-fit.txt"' "$B"
  step_every_model() {
    for m in $(build/rfl-estimate --list | awk '{print $1}' | head -30); do
      build/rfl-estimate "$m" --batch 32 --mode train --dtype bf16 --hw h200 --forecast --runtime eager --json |
        python3 -c "import json,sys; f=json.load(sys.stdin)['forecast']; assert f['gpu_time_s'] > 0 and f['step_time_s'] >= f['gpu_time_s'] and f['binds'] in ('gpu', 'host')" || return 1
    done
  }
  step "rfl-estimate --forecast --runtime eager: every zoo model has a GPU and a step time" step_every_model
fi
step "rfl-estimate --forecast on a zoo model prints GPU, host and what binds" \
  sh -c 'build/rfl-estimate resnet18 --mode train --hw h200 --forecast | grep -q "^forecast .*/step (eager, sgd): GPU .* kernels, host .*; bound .*; host binds"'
step "rfl-estimate --optim adam: Adam's foreach step, named in the JSON" \
  sh -c 'build/rfl-estimate resnet18 --mode train --hw h200 --forecast --optim adam --json | python3 -c "import json,sys; f=json.load(sys.stdin)[\"forecast\"]; assert f[\"optim\"] == \"adam\", f"'
step "rfl-estimate --forecast on a CNN: tokens_per_s null (a CNN has no tokens), never 0" \
  sh -c 'build/rfl-estimate resnet18 --hw h200 --forecast --json | python3 -c "import json,sys; f=json.load(sys.stdin)[\"forecast\"]; assert f[\"tokens_per_s\"] is None and f[\"step_time_s\"] > 0, f"'
step "rfl-estimate --runtime graphs: no host" \
  sh -c 'build/rfl-estimate resnet18 --hw h200 --forecast --runtime graphs --json | grep -q "\"host_time_s\": 0,"'
step "rfl-estimate --runtime fused on a CNN is bad usage (exit 2)" \
  sh -c 'build/rfl-estimate resnet18 --hw h200 --forecast --runtime fused > /dev/null 2>&1; [ $? = 2 ]'
step "rfl-estimate --forecast on an A100: assumed from Hopper" \
  sh -c 'build/rfl-estimate resnet50 --hw a100 --forecast | grep -q "basis: assumed from Hopper H200"'
step "rfl-estimate --onnx alexnet --forecast: the same forecast for an ONNX graph" \
  sh -c 'build/rfl-estimate --onnx tests/onnx/zoo/alexnet.onnx --mode train --hw h200 --forecast | grep -q "^forecast .*/step (eager, sgd): GPU"'
step "rfl-estimate llama-3.2-1b --runtime eager: an LLM step through the same kernels" \
  sh -c 'build/rfl-estimate llama-3.2-1b --dtype bf16 --phase decode --seq 512 --hw h200 --forecast --runtime eager | grep -q "^forecast .*/step (eager): GPU .*; host binds"'
# a machine file's "host" object: read back, and the forecast's host scaled by it
step_host_file() {
  build/rfl-hw h200 --json | python3 -c "import json,sys; d=json.load(sys.stdin); d['host']={'op_s':3.02e-05,'source':'test'}; print(json.dumps(d))" > "$B/h200-host.json" &&
  build/rfl-hw --hw-file "$B/h200-host.json" --json | python3 -c "import json,sys; assert json.load(sys.stdin)['host']['op_s'] == 3.02e-05" &&
  a=$(build/rfl-estimate resnet18 --hw h200 --forecast --json | python3 -c "import json,sys; print(json.load(sys.stdin)['forecast']['host_time_s'])") &&
  b=$(build/rfl-estimate resnet18 --hw-file "$B/h200-host.json" --forecast --json | python3 -c "import json,sys; print(json.load(sys.stdin)['forecast']['host_time_s'])") &&
  python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); assert abs(b / a - 2) < 1e-6, (a, b)" "$a" "$b"
}
[ -x build/rfl-hw ] || step "build rfl-hw" ${MAKE:-make} -s build/rfl-hw
step "a machine file's host op_s (twice the fitted host's) doubles the forecast's host time" step_host_file
