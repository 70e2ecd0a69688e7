#!/bin/bash
# The one device run: zoo references, then ncu captures.
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
log=$OUT/log.txt
exec > >(tee -a $log) 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
echo "ncu: $NCU"; $NCU --version | tail -1
( timeout 300 python3 zoo_ref.py $OUT/torch-zoo.json > $OUT/zoo-log.txt 2>&1 ) &
ZOO=$!
$NCU --query-metrics > /tmp/q.txt 2>&1
TP=$(grep -oE '^sm__ops_path_tensor_op_[a-z0-9_]+' /tmp/q.txt | sort -u | sed 's/$/.sum/' | paste -sd, -)
echo "tensor path metrics: $TP"
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_hadd_pred_on.sum,smsp__sass_thread_inst_executed_op_hmul_pred_on.sum,smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,sm__inst_executed_pipe_tensor.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained,dram__bytes.sum.peak_sustained"
[ -n "$TP" ] && M="$M,$TP"
cap() { # file, page-args, python args...
  local f=$1; shift; local page=$1; shift
  echo "== capture $f"; date +%T
  timeout 200 $NCU --clock-control none --profile-from-start off --target-processes all \
     --metrics "$M" --csv $page --log-file $OUT/$f python3 "$@" || echo "capture $f failed rc=$?"
  date +%T; ls -la $OUT/$f 2>/dev/null; head -c 600 $OUT/$f 2>/dev/null; echo
}
cap resnet50-b8-infer-tf32-full-raw.csv "--page raw" prof.py resnet50 8 infer 1
cap resnet50-b8-infer-full-raw.csv "--page raw" prof.py resnet50 8 infer 0
cap resnet18-b1-train-tf32-full-raw.csv "--page raw" prof.py resnet18 1 train 1
echo "== micro auto units details"
timeout 90 $NCU --clock-control none --profile-from-start off --metrics "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum" --print-units auto --csv --log-file $OUT/micro-auto-units-details.csv python3 micro.py || echo "auto failed"
head -c 1500 $OUT/micro-auto-units-details.csv; echo
wait $ZOO; tail -40 $OUT/zoo-log.txt
for a in "resnet50 8 infer 1" "resnet50 8 infer 0" "resnet18 1 train 0" "alexnet 1 train 0" "resnet18 1 train 1"; do RFL_TIME=1 timeout 60 python3 prof.py $a; done
ls -la $OUT
