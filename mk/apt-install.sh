#!/bin/sh
# apt-install.sh PACKAGE...: installs Debian packages the build needs.
# Make rules in several files (and a parallel make) may call it at once;
# apt and dpkg allow one run at a time, so every call takes the same lock
# and waits its turn. Without root it installs nothing and says, in one
# line, what to install.
set -eu
if [ "$(id -u)" != 0 ]; then
  echo "roofline.h build: missing packages; run: sudo apt-get install $*" >&2
  exit 1
fi
exec 9> /tmp/roofline-apt.lock
flock 9
# a run that held the lock before us may have installed them already
missing=
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq $missing
