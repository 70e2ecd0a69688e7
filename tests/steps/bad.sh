# tests/steps/bad.sh (sourced by tests/run.sh) - issue 8: every file in
# tests/bad/ makes rfl-reduce exit 1 with a one-line message naming
# FILE:LINE:COL as listed in tests/bad/EXPECTED.txt (the library-level
# check of the same files, with the error codes, is tests/test_bad.c).
bad_tool_check() {
  f=$1 line=$2 col=$3
  err=$(build/rfl-reduce "tests/bad/$f" 2>&1 >/dev/null); rc=$?
  if [ $rc != 1 ]; then echo "rfl-reduce tests/bad/$f: exit $rc, expected 1"; return 1; fi
  case $err in
    *"tests/bad/$f:$line:$col: "*) ;;
    *) echo "rfl-reduce tests/bad/$f: '$err' does not name $line:$col"; return 1 ;;
  esac
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "rfl-reduce tests/bad/$f: more than one line"; return 1; }
}
if [ -x build/rfl-reduce ]; then
  grep -v '^#' tests/bad/EXPECTED.txt | while read -r f code line col; do
    [ -n "$f" ] && echo "$f $line $col"
  done > "$B/bad_list.txt"
  while read -r f line col; do
    step "rfl-reduce exits 1 naming the position: tests/bad/$f" bad_tool_check "$f" "$line" "$col"
  done < "$B/bad_list.txt"
  # the same through standard input: the message names <stdin>
  bad_stdin() {
    err=$(build/rfl-reduce - < tests/bad/non-number.csv 2>&1 >/dev/null); rc=$?
    [ $rc = 1 ] && case $err in *"<stdin>:5:28: "*) true ;; *) false ;; esac
  }
  step "rfl-reduce - exits 1 naming <stdin>:5:28" bad_stdin
else
  bad "tests/steps/bad.sh: build/rfl-reduce missing"
fi
