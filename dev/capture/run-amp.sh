#!/bin/bash
# The second device run (2026-11-22, evening): captures that test what the
# first lacked. FP16 and BF16 autocast with every tensor counter (do the
# *_dst_* and *_sparsity_* breakdowns sum to their base? FLOPs per tensor
# instruction of FP16 kernels?); ResNet-18 TF32 with the reports' seed
# metrics and the tensor-pipe counter (the A100 case, for real); ResNet-50
# b8 inference with README.md's exact command.
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
log=$OUT/log.txt
exec > >(tee -a $log) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv
python3 -c 'import torch, torchvision; print("torch", torch.__version__, "torchvision", torchvision.__version__)'
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
echo "ncu: $NCU"; $NCU --version | tail -1
$NCU --query-metrics > /tmp/q.txt 2>&1
TP=$(grep -oE '^sm__ops_path_tensor_op_[a-z0-9_]+' /tmp/q.txt | sort -u | sed 's/$/.sum/' | paste -sd, -)
TI=$(grep -oE '^sm__inst_executed_pipe_tensor[a-z0-9_]*' /tmp/q.txt | sort -u | sed 's/$/.sum/' | paste -sd, -)
echo "tensor path metrics: $TP"; echo "tensor inst metrics: $TI"
M0="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
FULL="$M0,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_hadd_pred_on.sum,smsp__sass_thread_inst_executed_op_hmul_pred_on.sum,smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,$TI,$TP"
# README.md's list, verbatim
R=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
R=$R,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_hadd_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_hmul_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_hfma_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum
R=$R,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum
R=$R,sm__inst_executed_pipe_tensor.sum
R=$R,sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32.sum,sm__ops_path_tensor_op_hgmma_src_tf32_dst_fp32.sum
R=$R,sm__ops_path_tensor_op_hmma_src_fp16.sum,sm__ops_path_tensor_op_hgmma_src_fp16.sum
R=$R,sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32.sum,sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum
R=$R,lts__t_bytes.sum,l1tex__t_bytes.sum
R=$R,sm__cycles_elapsed.avg.per_second
cap() { # file, metrics, prof.py args...
  local f=$1; shift; local m=$1; shift
  echo "== capture $f ($*)"; date +%T
  timeout 150 $NCU --clock-control none --profile-from-start off --target-processes all \
     --metrics "$m" --csv --page raw --log-file $OUT/$f python3 prof.py "$@" || echo "capture $f failed rc=$?"
  date +%T; ls -la $OUT/$f 2>/dev/null
}
cap resnet50-b8-infer-readme-raw.csv "$R" resnet50 8 infer 1
cap resnet50-b8-infer-fp16-full-raw.csv "$FULL" resnet50 8 infer fp16
cap resnet50-b8-infer-bf16-full-raw.csv "$FULL" resnet50 8 infer bf16
cap resnet18-b1-train-fp16-full-raw.csv "$FULL" resnet18 1 train fp16
cap resnet18-b1-train-tf32-seed-raw.csv "$M0,sm__inst_executed_pipe_tensor.sum" resnet18 1 train 1
for a in "resnet50 8 infer 1" "resnet50 8 infer fp16" "resnet50 8 infer bf16" "resnet18 1 train fp16"; do
  RFL_TIME=1 timeout 60 python3 prof.py $a
done
ls -la $OUT
