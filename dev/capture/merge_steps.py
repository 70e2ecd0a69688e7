# Merge packed step files (pack_steps.py output) into one, re-indexing the
# string table; IN may be FILE or FILE:FIRST:LAST to take cases[FIRST:LAST]
# with headers[...] kept whole (a device run that appended two runs to one
# JSON-lines file). usage: merge_steps.py OUT.json.gz RUN_NAME IN...
import gzip, json, sys
out, run = sys.argv[1], sys.argv[2]
strings, index = [], {}
def sid(s):
    if s not in index:
        index[s] = len(strings); strings.append(s)
    return index[s]
doc = dict(format="rfl-steps-1", run=run, headers=[], footers=[], cases=[], strings=strings)
for spec in sys.argv[3:]:
    parts = spec.split(":")
    d = json.load(gzip.open(parts[0]))
    lo, hi = (int(parts[1]), int(parts[2])) if len(parts) == 3 else (0, len(d["cases"]))
    doc["headers"] += d["headers"]; doc["footers"] += d["footers"]
    for key in ("kernel_columns", "kernel_columns_note"):
        doc[key] = d.get(key)
    S = d["strings"]
    for c in d["cases"][lo:hi]:
        for r in c.get("kernel_rows", []):
            for i in (0, 3, 4, 5):
                r[i] = sid(S[r[i]])
        doc["cases"].append(c)
with gzip.open(out, "wt", compresslevel=9) as f:
    json.dump(doc, f, separators=(",", ":"))
print(out, len(doc["cases"]), "cases", len(strings), "strings")
