#!/bin/sh
# inline.sh HTML CSS JS WASM > OUT.html: the one-file page. The template's
# @STYLE@ and @SCRIPT@ lines take the CSS and the JS; the JS's @WASM@
# takes the module in base64. Nothing else is changed.
set -eu
html=$1 css=$2 js=$3 wasm=$4
b64=$wasm.b64
base64 -w 0 "$wasm" > "$b64"
echo >> "$b64"
awk -v css="$css" -v js="$js" -v b64file="$b64" '
  $0 == "@STYLE@" { while ((getline l < css) > 0) print l; next }
  $0 == "@SCRIPT@" {
    getline b64 < b64file
    while ((getline l < js) > 0) {
      i = index(l, "@WASM@")
      if (i) l = substr(l, 1, i - 1) b64 substr(l, i + 6)
      print l
    }
    next
  }
  { print }' "$html"
rm -f "$b64"
