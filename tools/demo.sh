#!/bin/sh
# make demo: the main job. Grows into rfl-report as the parts land.
set -e
cd "$(dirname "$0")/.."
if [ -x build/rfl-report ]; then
    build/rfl-report
else
    build/rfl-hw
    echo
    build/rfl-hw a100
fi
