# make install / uninstall (issue 15): into a temporary DESTDIR with its own
# PREFIX; examples/minimal.c then builds with what pkg-config says and
# nothing else, and runs; uninstall leaves no file behind. Sourced by
# tests/run.sh (step, $B).
IN=$(mktemp -d "${TMPDIR:-/tmp}/rfl-install.XXXXXX")
IN_PREFIX=/opt/roofline-test
IN_ROOT=$IN/dest$IN_PREFIX
IN_MAKE="${MAKE:-make} --no-print-directory -s DESTDIR=$IN/dest PREFIX=$IN_PREFIX"

in_install() {
  $IN_MAKE install || return 1
  for f in include/roofline/roofline.h include/roofline/hw_specs.h share/pkgconfig/roofline.pc \
           bin/rfl-report bin/rfl-estimate bin/rfl-reduce bin/rfl-plot bin/rfl-hw bin/rfl-probe bin/rfl-check; do
    [ -f "$IN_ROOT/$f" ] || { echo "not installed: $f"; return 1; }
  done
  cmp roofline.h "$IN_ROOT/include/roofline/roofline.h" &&
  # the .pc names the final prefix, not the staging folder
  grep -qx "prefix=$IN_PREFIX" "$IN_ROOT/share/pkgconfig/roofline.pc" &&
  # the project has no public address: no URL rather than a made-up one
  ! grep -q '^URL:' "$IN_ROOT/share/pkgconfig/roofline.pc" &&
  # README's count of the tools is the number installed
  n=$(ls "$IN_ROOT/bin" | grep -c '^rfl-') && grep -q "$(echo $n | sed 's/^5$/Five/;s/^6$/Six/;s/^7$/Seven/') small tools" README.md
}
step "install: make install DESTDIR PREFIX puts headers, tools, roofline.pc" in_install

# the staged tree seen as a sysroot: pkg-config prefixes its -I with it
in_pc() {
  PKG_CONFIG_PATH=$IN_ROOT/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$IN/dest \
    pkg-config "$@" roofline
}
in_build() {
  cflags=$(in_pc --cflags) && libs=$(in_pc --libs) || return 1
  echo "cflags: $cflags libs: $libs"
  [ "$(echo $cflags)" = "-I$IN_ROOT/include/roofline" ] || return 1 # pkg-config adds a space
  mkdir -p "$IN/app" && cp examples/minimal.c "$IN/app/" &&
  (cd "$IN/app" && cc -std=c99 $W $cflags minimal.c -o minimal $libs) &&
  "$IN/app/minimal" | grep -q 'compute-bound on the NVIDIA A100'
}
if command -v pkg-config > /dev/null; then
  step "install: minimal.c builds with pkg-config --cflags/--libs roofline, runs" in_build
  in_version() { [ "$(in_pc --modversion)" = "$(sed -n 's/^#define RFL_VERSION_STRING "\(.*\)"/\1/p' roofline.h)" ]; }
  step "install: roofline.pc's version is RFL_VERSION_STRING" in_version
else
  echo "install: pkg-config not found: pkg-config checks skipped (apt-get install pkg-config)"
fi

in_uninstall() {
  $IN_MAKE uninstall || return 1
  left=$(find "$IN/dest" -type f -o -type l)
  [ -z "$left" ] || { echo "left after uninstall: $left"; return 1; }
  [ ! -e "$IN_ROOT/include/roofline" ]
}
step "install: make uninstall removes every installed file" in_uninstall
rm -rf "$IN"
