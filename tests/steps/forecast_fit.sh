# The forecast's terms in hw_specs.h are what dev/capture/fit_forecast.py
# fits on tests/data/forecast/ (it reads the steps' records through
# build/rfl-estimate and the machines through build/rfl-hw), and the fit
# still reports the held-out errors the README states.
for t in rfl-estimate rfl-hw; do
  [ -x build/$t ] || step "build $t" ${MAKE:-make} -s build/$t
done
# fit_holds SCRIPT OUT LINE: SCRIPT --check agrees with hw_specs.h and prints LINE
fit_holds() {
  python3 "$1" --check hw_specs.h > "$B/$2" || return 1
  grep -q "$3" "$B/$2"
}
if command -v python3 > /dev/null 2>&1; then
  step "forecast: hw_specs.h holds the terms fit_forecast.py fits, with the held-out errors the README states" \
    fit_holds dev/capture/fit_forecast.py forecast-fit.txt "^every held-out case: 105, median |error| 6.2%, max 28.1%"
fi
# --forecast: the unknowns said out loud
forecast_rc() {
  want=$1; shift
  build/rfl-estimate "$@" > "$B/forecast.out" 2> "$B/forecast.err"
  [ $? = "$want" ]
}
step "rfl-estimate --forecast needs a machine (exit 2)" forecast_rc 2 llama-3-8b --forecast
step "rfl-estimate --forecast on an H100 prints the forecast beside the bound" \
  sh -c 'build/rfl-estimate llama-3-8b --dtype bf16 --seq 512 --hw h100 --forecast | grep -q "^forecast .*ms/step (.* tokens/s); bound .* ms; .*: +"'
step "rfl-estimate --gpus 2 --forecast on a machine whose link is unknown says so (exit 1)" \
  sh -c 'build/rfl-estimate llama-2-7b --hw mi210 --gpus 2 --forecast 2>&1 >/dev/null | grep -q "no forecast: the link is unknown"; [ $? = 0 ]'
step "rfl-estimate llama-2-7b on 2 A100s --forecast: the forecast and its JSON" \
  sh -c 'build/rfl-estimate llama-2-7b --phase decode --batch 1 --seq 128 --hw a100-80gb --gpus 2 --forecast --json | python3 -c "import json,sys; f=json.load(sys.stdin)[\"forecast\"]; assert f[\"gpus\"] == 2 and f[\"comm_s\"] > 0 and f[\"step_time_s\"] > f[\"bound_s\"] and f[\"basis\"].startswith(\"assumed from Hopper H100\")"'
for g in 4 8; do
  step "rfl-estimate llama-3-70b on $g H100s --forecast" \
    sh -c "build/rfl-estimate llama-3-70b --phase decode --batch 1 --seq 128 --hw h100 --gpus $g --forecast | grep -q '^forecast .* tokens/s, all GPUs); bound'"
done
# the pictures: tokens/s against GPUs, time to first token against the prompt
[ -x build/examples/forecast_charts ] || step "build examples/forecast_charts" ${MAKE:-make} -s build/examples/forecast_charts
forecast_charts() {
  build/examples/forecast_charts build > "$B/forecast-charts.txt" || return 1
  [ -s build/forecast-gpus.png ] && [ -s build/forecast-ttft.png ] &&
    grep -q "does not fit" "$B/forecast-charts.txt"
}
step "examples/forecast_charts writes build/forecast-gpus.png and build/forecast-ttft.png" forecast_charts
step "rfl-estimate --forecast on a CPU says no family of its kind was measured (exit 1)" \
  sh -c 'build/rfl-estimate llama-3.2-1b --dtype fp32 --hw xeon-e5-2699v4-2s --forecast 2>&1 >/dev/null | grep -q "measured on GPUs only"'
# transformers' decode step (--runtime eager|graphs): the row fit_hf_steps.py fits
if command -v python3 > /dev/null 2>&1; then
  step "forecast: hw_specs.h holds the transformers-step row fit_hf_steps.py fits (Qwen3 held out: graphs within 6%)" \
    fit_holds dev/capture/fit_hf_steps.py hf-fit.txt "^graphs qwen3-8b: median |error| 3.4%, max 6.0%"
fi
# published end-to-end timings on GPUs never measured (tests/data/forecast/published.json)
published() {
  python3 dev/capture/check_published.py --fit-link --check hw_specs.h > "$B/published.txt" &&
    python3 dev/capture/check_published.py --require 29 --require50 33 >> "$B/published.txt"
}
if command -v python3 > /dev/null 2>&1; then
  step "forecast: 29 of the 35 published timings (A100, L40S, MI300X) within 25%, 33 within 50%; hw_specs.h holds the A100 link's fit" published
fi
