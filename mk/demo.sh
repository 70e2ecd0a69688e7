#!/bin/sh
# make demo: the reports' exercise in one command (make has built the tools).
# ResNet-18 and AlexNet, batch 1, one training step, FP32, estimated on V100,
# A100 and H100 and measured on an H100 (examples/data/*.csv): tables on
# stdout, charts and report.json in build/demo/.
set -e
cd "$(dirname "$0")/.."
out=build/demo
build/rfl-report --model resnet18,alexnet --hw v100,a100,h100 --batch 1 --mode train \
    --ncu resnet18=examples/data/resnet18-b1-train-seed-raw.csv \
    --ncu alexnet=examples/data/alexnet-b1-train-full-raw.csv \
    --ascii -o "$out"
echo
echo "Open $out/roofline.png first (one panel per GPU), then roofline-<gpu>.png,"
echo "layers-<model>.png (every layer on the H100 roofline) and types-<model>.png."
echo "Every number above, explained: build/rfl-report --explain"
