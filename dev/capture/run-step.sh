#!/bin/bash
# Device runs for issue 38/36 (sent from .devout/, see tests/data/step/README.md).
# usage: run-step.sh smoke|zoo1|zoo2|adam1|adam2 ; results under $OUT
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
phase=$1
exec > >(tee -a $OUT/log-$phase.txt) 2>&1
date -u; nvidia-smi; python3 -c 'import torch,torchvision,transformers;print(torch.__version__,torchvision.__version__,transformers.__version__,torch.backends.cudnn.version())'
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu --format=csv -lms 1000 > $OUT/smi-$phase.csv &
SMI=$!
J=/tmp/steps-$phase.jsonl
case $phase in
smoke)
  timeout 70 python3 traces.py /tmp/tr llama-3.2-1b.json
  timeout 45 python3 step_time.py $J --batches 1,32 --models resnet18,densenet121 --deadline 35
  timeout 25 python3 step_time.py $J --batches 256 --models vgg16 --modes train --dtypes fp32 ;;
zoo1)
  timeout -k 5 ${LIM:-540} python3 step_time.py $J --batches 1,32 --deadline $(( ${LIM:-540} - 15 )) ;;
zoo2)
  timeout -k 5 ${LIM:-300} python3 step_time.py $J --batches 256 --deadline $(( ${LIM:-300} - 15 ))
  [ -f llm_steps.py ] && timeout -k 5 ${LLM:-140} python3 llm_steps.py $OUT/llm-steps-h200.json
  [ -f host_micro.py ] && timeout -k 5 ${MIC:-50} python3 host_micro.py $OUT/host-micro-h200.json ;;
adam1|adam2)
  # training with torch.optim.Adam (foreach): every model at batch 1 and 32 (adam1), 256 (adam2)
  B=1,32; [ $phase = adam2 ] && B=256
  timeout -k 5 ${LIM:-420} python3 step_time.py $J --batches $B --modes train --optim adam --deadline $(( ${LIM:-420} - 15 )) ;;
esac
kill $SMI
python3 pack_steps.py $J $OUT/steps-h200-$phase.json.gz
[ -d /tmp/tr ] && tar -C /tmp -cf $OUT/traces-$phase.tar tr
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,temperature.gpu --format=csv
ls -la $OUT; date -u
