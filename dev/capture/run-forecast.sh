#!/bin/bash
# Device runs for the family references and the forecast measurements.
#   run-forecast.sh smoke   every part with tiny sizes (one GPU)
#   run-forecast.sh one     families_ref.py and forecast_gpu.py, full sizes (one GPU)
#   run-forecast.sh one2    forecast_gpu.py's fused and compiled variants (one GPU)
#   run-forecast.sh multi   forecast_nccl.py on 1, 2 and 4 GPUs of one host
# Results and the log go to $OUT.
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mode=$1
exec > >(tee -a "$OUT/log-$mode.txt") 2>&1
date -u
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__, 'gpus', torch.cuda.device_count())"
case $mode in
smoke)
  timeout 150 python3 families_ref.py "$OUT/families-reference.json" smoke || echo "families_ref rc=$?"
  timeout 150 python3 forecast_gpu.py "$OUT" smoke || echo "forecast_gpu rc=$?"
  timeout 60 torchrun --standalone --nproc_per_node=1 forecast_nccl.py "$OUT" smoke || echo "forecast_nccl rc=$?"
  ;;
one)
  timeout 200 python3 families_ref.py "$OUT/families-reference.json" || echo "families_ref rc=$?"
  timeout 330 python3 forecast_gpu.py "$OUT" || echo "forecast_gpu rc=$?"
  ;;
one2)
  timeout 110 python3 forecast_gpu.py "$OUT" parts=decode-fused,prefill-fused || echo "fused rc=$?"
  timeout 120 python3 forecast_gpu.py "$OUT" parts=decode-compiled || echo "compiled rc=$?"
  ;;
multi)
  n=$(nvidia-smi -L | wc -l)
  [ -n "$SMOKE_FIRST" ] && { timeout 60 torchrun --standalone --nproc_per_node=2 forecast_nccl.py "$OUT/smoke" smoke || echo "smoke rc=$?"; }
  for p in 2 4 1; do
    [ "$p" -le "$n" ] || continue
    timeout ${TP_TIMEOUT:-100} torchrun --standalone --nproc_per_node=$p forecast_nccl.py "$OUT" || echo "tp$p rc=$?"
  done
  nvidia-smi topo -m
  ;;
esac
nvidia-smi --query-gpu=index,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv
date -u
