#!/bin/sh
# dev/linecount.sh [FILE]: lines of roofline.h per section, and issue 15's
# measure "the merged file is shorter than its parts were": the parts that
# issues 17-19 added after the merge (they did not exist then) are set
# apart; the rest is held against the 10,151 lines of the parts before the
# merge (a5aba77: roofline.h 569 + src/*.h 9,379 + tools/json_read.h 203).
# A section runs from the line above its banner title to the line above the
# next one; VERSION HISTORY from its title to the end.
f=${1:-roofline.h}
awk -v before=10151 '
function close_sec(end) { if (name != "") { n[++k] = name; len[k] = end - start + 1 } }
/^   API  |^   \[[0-9]+\] +[A-Z]|^\/\* +IMPLEMENTATION +\*\/$/ {
    close_sec(NR - 2); name = $0; start = NR - 1
}
/^   VERSION HISTORY$/ { close_sec(NR - 1); name = $0; start = NR }
NR == 1 { name = "   MANUAL AND CORE DECLARATIONS"; start = 1 }
END {
    close_sec(NR)
    for (i = 1; i <= k; i++) {
        s = n[i]; sub(/^\/\* +/, "", s); sub(/ +\*\/$/, "", s); sub(/^ +/, "", s); sub(/ \(RFL_NO_.*/, "", s)
        late = (s ~ /^API  (TRANSFORMERS|ONNX|MACHINE FILES AND PROBE|MACHINE FILES|LLM JOIN|PROBE)$/ ||
                s ~ /^\[(4|7|9|11|14)\] /)
        printf "%6d  %s%s\n", len[i], s, late ? "   (issues 17-19)" : ""
        total += len[i]; if (late) added += len[i]
    }
    printf "%6d  total\n%6d  parts of issues 17-19\n%6d  the rest, against %d before the merge (%+d)\n",
           total, added, total - added, before, total - added - before
}' "$f" > "${TMPDIR:-/tmp}/linecount.$$"
cat "${TMPDIR:-/tmp}/linecount.$$"
# the rest, like for like: without what issues 16-19 added inside it
rest=$(awk '/the rest, against/ { print $1 }' "${TMPDIR:-/tmp}/linecount.$$")
rm -f "${TMPDIR:-/tmp}/linecount.$$"
if command -v python3 > /dev/null; then
    echo; python3 "$(dirname "$0")/linecount_late.py" "$f" "$rest"
fi
