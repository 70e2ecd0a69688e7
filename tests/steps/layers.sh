# rfl-estimate: the zoo through the tool, the torchsummary tables, --hw,
# errors and exit codes. Expected numbers come from tests/data/torch-zoo.json
# (FlopCounterMode and torchvision on an H100, dev/capture/zoo_ref.py),
# torchvision's published parameter counts, the reports' torchsummary
# tables, and the first layers' input gradients derived by hand
# (2 x Cout x Hout x Wout x Cin x k x k) where FlopCounterMode's backward
# is wrong (grouped/depthwise convs, SDPA).
EST=build/rfl-estimate
ZJ=tests/data/torch-zoo.json
LO=$B/layers-step
mkdir -p "$LO"
if [ ! -x "$EST" ]; then
  step "build rfl-estimate" ${MAKE:-make} -s "$EST"
fi

# value of the first "key": N after the line '  "model": {' in torch-zoo.json
zoo_val() { awk -v m="  \"$1\": {" -v k="\"$2\":" 'index($0, m) == 1 { f = 1 } f && index($0, k) { gsub(/[^0-9]/, ""); print; exit }' "$ZJ"; }
# top-level field of rfl-estimate --json; "forward mac_flops" style for nested
est_top() { sed -n "s/^  \"$2\": \\([0-9]*\\),*$/\\1/p" "$1" | head -1; }
est_in() { awk -v o="  \"$2\": {" -v k="    \"$3\":" 'index($0, o) == 1 { f = 1 } f && index($0, k) == 1 { gsub(/[^0-9]/, ""); print; exit }' "$1"; }

check_eq() { # NAME GOT WANT
  if [ -n "$2" ] && [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}

while read -r m params first; do
  [ -z "$m" ] && continue
  f1=$(zoo_val "$m" forward)
  b1=$(zoo_val "$m" backward)
  for b in 1 256; do
    out="$LO/$m-$b.json"
    if ! "$EST" "$m" --batch "$b" --json > "$out" 2>> "$LOG"; then bad "rfl-estimate $m --batch $b --json"; continue; fi
    check_eq "$m b$b params (torchvision)" "$(est_top "$out" params)" "$params"
    check_eq "$m b$b params (torch-zoo.json)" "$(est_top "$out" params)" "$(zoo_val "$m" params)"
    check_eq "$m b$b forward mac_flops" "$(est_in "$out" forward mac_flops)" "$((f1 * b))"
    if [ "$first" = 0 ]; then want=$((b1 * b)); else want=$(((2 * f1 - first) * b)); fi
    check_eq "$m b$b backward mac_flops" "$(est_in "$out" backward mac_flops)" "$want"
    check_eq "$m b$b batch" "$(est_top "$out" batch)" "$b"
  done
done <<'ZOO'
resnet18 11689512 0
resnet34 21797672 0
resnet50 25557032 0
alexnet 61100840 0
vgg16 138357544 0
mobilenet_v2 3504872 21676032
mobilenet_v3_large 5483032 10838016
squeezenet1_1 1235496 0
shufflenet_v2_x1_0 2278604 16257024
efficientnet_b0 5288548 21676032
densenet121 7978856 0
vit_b_16 86567656 231211008
resnet101 44549160 0
resnet152 60192808 0
wide_resnet50_2 68883240 0
resnext50_32x4d 25028904 236027904
vgg11 132863336 0
vgg19 143667240 0
mobilenet_v3_small 2542856 10838016
squeezenet1_0 1248424 0
shufflenet_v2_x0_5 1366792 16257024
efficientnet_b1 7794184 21676032
densenet169 14149480 0
vit_b_32 88224232 231211008
mnasnet1_0 4383312 21676032
googlenet 6624904 0
inception_v3 23834568 0
regnet_y_400mf 4344144 21676032
convnext_tiny 28589128 28901376
swin_t 28288354 0
ZOO

# the reports' torchsummary totals, printed exactly
summary_has() { # MODEL LINE...
  m=$1; shift
  "$EST" "$m" --summary > "$LO/$m-summary.txt" 2>> "$LOG" || { bad "rfl-estimate $m --summary"; return; }
  for l in "$@"; do
    if grep -qxF "$l" "$LO/$m-summary.txt"; then ok; else bad "$m --summary lacks '$l'"; fi
  done
}
summary_has resnet18 "Total params: 11,689,512" "Input size (MB): 0.57" \
  "Forward/backward pass size (MB): 62.79" "Params size (MB): 44.59" "Estimated Total Size (MB): 107.96" \
  "       BasicBlock-11           [-1, 64, 56, 56]               0" \
  "           Linear-68                 [-1, 1000]         513,000"
summary_has alexnet "Total params: 61,100,840" "Input size (MB): 0.57" \
  "Forward/backward pass size (MB): 8.38" "Params size (MB): 233.08" "Estimated Total Size (MB): 242.03"

# pen-and-paper convention: AlexNet forward 1,428,386,152
"$EST" alexnet --conv report --json > "$LO/alexnet-report.json" 2>> "$LOG"
check_eq "alexnet --conv report forward mac_flops" "$(est_in "$LO/alexnet-report.json" forward mac_flops)" 1428386152

# --hw: a per-layer bound column and the predicted time
if "$EST" resnet18 --hw a100 > "$LO/r18-a100.txt" 2>> "$LOG"; then
  ok
  if grep -q ' bound$' "$LO/r18-a100.txt" && grep -q 'conv1 .* compute$' "$LO/r18-a100.txt" &&
     grep -q '^  predicted time ' "$LO/r18-a100.txt"; then ok; else bad "resnet18 --hw a100 table"; fi
else bad "rfl-estimate resnet18 --hw a100"; fi
"$EST" resnet18 --hw a100 --json > "$LO/r18-a100.json" 2>> "$LOG"
if grep -q '^  "hw": "a100-sxm4-40gb",$' "$LO/r18-a100.json" && grep -q '^  "predicted_time_s": ' "$LO/r18-a100.json" &&
   grep -q '^  "bound": "\(compute\|memory\)",$' "$LO/r18-a100.json"; then ok; else bad "resnet18 --hw a100 --json fields"; fi

# exit codes: 0 help, 2 usage (an option's bad value too), 1 bad input
# (unknown model lists the zoo; a resolution too small for the model)
exit_is() { want=$1; shift; "$@" > /dev/null 2> "$LO/err.txt"; rc=$?; check_eq "exit of $*" "$rc" "$want"; }
exit_is 0 "$EST" --help
exit_is 0 "$EST" --list
exit_is 2 "$EST"
exit_is 2 "$EST" resnet18 --bogus
exit_is 2 "$EST" resnet18 --mode fly
exit_is 2 "$EST" resnet18 --batch 0
exit_is 2 "$EST" resnet18 --batch -3
exit_is 1 "$EST" alexnet --res 32
exit_is 2 "$EST" resnet18 --dtype fp64
exit_is 1 "$EST" resnet18 --hw nosuchgpu
exit_is 1 "$EST" resnet18 --hw v100 --dtype bf16
exit_is 1 "$EST" resnet19
if grep -q 'vit_b_16' "$LO/err.txt"; then ok; else bad "unknown model error lists the zoo"; fi
# the library without the zoo still builds and links (RFL_NO_ZOO)
printf '#define RFL_NO_ZOO\n#define ROOFLINE_IMPLEMENTATION\n#include "roofline.h"\nint main(void){rfl_layer r[4]; rfl_net n; rfl_net_init(&n, r, 4, 0, 0); return rfl_input(&n, 3, 8, 8) != 0;}\n' > "$LO/nozoo.c"
step "RFL_NO_ZOO build" gcc -std=c99 $WX -I. "$LO/nozoo.c" -o "$LO/nozoo" -lm
step "RFL_NO_ZOO run" "$LO/nozoo"
