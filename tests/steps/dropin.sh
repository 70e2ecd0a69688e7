# Drop-in (issue 15): roofline.h and hw_specs.h copied ALONE into an empty
# folder are the whole library. Every example builds there as C99 and as
# C++11 with the warnings as errors, `cc -M` shows that nothing else of the
# repository is read, and minimal runs. Sourced by tests/run.sh (step, $W).
# Cost: the C builds link (about 1.3 s of CPU each); the C++ builds stop
# after the front end (-fsyntax-only), where the C++ diagnostics live (the
# header alone is compiled to an object as C++ in tests/run.sh).
DI_REPO=$(pwd)
DI=$(mktemp -d "${TMPDIR:-/tmp}/rfl-dropin.XXXXXX")
cp roofline.h hw_specs.h examples/*.c "$DI/"
DI_CC=${CC_DROPIN:-cc}
# C++: the examples zero their option structs with `= {0}`, the C idiom;
# g++ -Wextra calls that a missing initializer, so C++ builds of the
# examples (not of the header, see tests/run.sh) take
# -Wno-missing-field-initializers.
DI_CXXW="$W -Wno-missing-field-initializers"

# di_c NAME [FLAGS]: build examples/NAME.c in the folder as C99; the list
# of files it read (cc -M) goes to NAME.d
di_c() {
  n=$1; shift
  (cd "$DI" && env -u CPATH -u C_INCLUDE_PATH $DI_CC -std=c99 $W -MD -MF "$n.d" -MT x "$@" "$n.c" -o "$n" -lm)
}
# di_cxx NAME [FLAGS]: compile it as C++11 (front end only, see above)
di_cxx() { n=$1; shift; (cd "$DI" && env -u CPATH -u CPLUS_INCLUDE_PATH g++ -x c++ -std=c++11 $DI_CXXW "$@" "$n.c"); }

# di_only_two NAME: every file `cc -M` listed is the example, roofline.h,
# hw_specs.h, or a system header; none lies in the repository.
di_only_two() {
  [ -s "$DI/$1.d" ] || return 1
  tr -d '\\\n' < "$DI/$1.d" | tr -s ' ' '\n' | sed '1d;/^$/d' > "$DI/$1.files"
  bad_files=$(grep -v -x -e "$1.c" -e roofline.h -e hw_specs.h -e '/.*' "$DI/$1.files";
              grep -F "$DI_REPO/" "$DI/$1.files")
  [ -z "$bad_files" ] || { echo "read outside the two headers: $bad_files"; return 1; }
  # hw_specs.h is read unless the example leaves the table out
  grep -qx roofline.h "$DI/$1.files" &&
    { grep -q '^#define RFL_NO_HW_TABLE' "$DI/$1.c" || grep -qx hw_specs.h "$DI/$1.files"; }
}

for di_e in examples/*.c; do
  di_n=$(basename "$di_e" .c)
  step "drop-in: $di_n builds as C99 from the two headers alone" di_c "$di_n"
  step "drop-in: $di_n compiles as C++11" di_cxx "$di_n" -fsyntax-only
  step "drop-in: $di_n reads no other file of the repository (cc -M)" di_only_two "$di_n"
done

# minimal, run: ResNet-18's forward AI is about 31 FLOP/B (3.6 GFLOP over
# 117 MB), above the A100's ridge of 19.5e12 / 1555e9 = 12.54 FLOP/B
# (datasheet), so compute-bound at the 19.5 TFLOP/s FP32 peak.
di_minimal_runs() {
  out=$("$DI/$1") || return 1
  echo "$out"
  case $out in *"compute-bound on the NVIDIA A100"*"at most 19.5 TFLOP/s"*) return 0 ;; esac
  return 1
}
step "drop-in: minimal runs (C99)" di_minimal_runs minimal

# the manual's QUICK START, cut out of the copied header, is a complete
# program: AI = 3.628e9 / 105e6 = 34.55 FLOP/B, above the A100's ridge
# (12.54), so compute-bound at the 19.5 TFLOP/s FP32 peak.
di_quick_start() {
  expand -t 4 "$DI/roofline.h" | awk '/QUICK START \(a complete program/ { f = 1; next } f && /^   [A-Z]/ { exit } f' |
    sed -n 's/^       //p' > "$DI/quick_start.c"
  grep -q 'int main' "$DI/quick_start.c" && di_c quick_start || return 1
  [ "$("$DI/quick_start")" = "AI 34.55 FLOP/B, 19.5 TFLOP/s, compute-bound" ]
}
step "drop-in: the header's QUICK START builds and prints the hand-derived figures" di_quick_start

# RFL_NO_HW_TABLE: roofline.h alone, without hw_specs.h, is the library
# for a program that describes its own machine (examples/own_hardware.c)
di_no_table() {
  mkdir -p "$DI/alone" && cp roofline.h examples/own_hardware.c "$DI/alone/" &&
  (cd "$DI/alone" && $DI_CC -std=c99 $W -DRFL_NO_HW_TABLE -fsyntax-only own_hardware.c)
}
step "drop-in: roofline.h alone builds own_hardware.c with RFL_NO_HW_TABLE" di_no_table

# PNG: with stb_image_write.h installed the examples above drew with it;
# with -DRFL_NO_PNG the one that writes a PNG still builds (and says so).
if [ -f /usr/include/stb/stb_image_write.h ]; then
  di_uses_stb() { grep -q 'stb/stb_image_write.h' "$DI/homework.files"; }
  step "drop-in: homework found stb_image_write.h (PNG on)" di_uses_stb
fi
step "drop-in: homework builds with -DRFL_NO_PNG" di_c homework -DRFL_NO_PNG -fsyntax-only -MF homework-nopng.d
rm -rf "$DI"
