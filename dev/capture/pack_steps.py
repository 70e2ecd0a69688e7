# Pack step_time.py's JSON lines into one gzip JSON (documented in
# tests/data/step/README.md): kernel rows' strings go to one table.
# usage: pack_steps.py IN.jsonl [IN2.jsonl ...] OUT.json.gz
import gzip, json, sys
strings, index = [], {}
def sid(s):
    if s not in index:
        index[s] = len(strings); strings.append(s)
    return index[s]
doc = dict(format="rfl-steps-1", headers=[], footers=[], cases=[], strings=strings)
for path in sys.argv[1:-1]:
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        try:
            r = json.loads(line)
        except ValueError:
            print("skipping a broken line in", path, file=sys.stderr); continue
        k = r.pop("kind", "case")
        if k == "header":
            doc["headers"].append(r)
        elif k == "footer":
            doc["footers"].append(r)
        else:
            for row in r.get("kernel_rows", []):
                for i in (0, 3, 4, 5):
                    row[i] = sid(row[i])
            doc["cases"].append(r)
if doc["headers"]:
    doc["kernel_columns"] = doc["headers"][0].get("kernel_columns")
doc["kernel_columns_note"] = "name, op, op_input_dims, top_op are indices into strings"
with gzip.open(sys.argv[-1], "wt", compresslevel=9) as f:
    json.dump(doc, f, separators=(",", ":"))
n = len(doc["cases"]); ok = sum(1 for c in doc["cases"] if "wall_ms" in c)
print("packed %d cases (%d measured), %d strings -> %s" % (n, ok, len(strings), sys.argv[-1]))
