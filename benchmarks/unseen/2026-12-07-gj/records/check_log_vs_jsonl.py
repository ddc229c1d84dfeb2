"""Check every loss printed in a log against the JSONL record written beside the print, in order.

    python records/check_log_vs_jsonl.py LOG RECORD.jsonl

Lines are counted by '\\n' only (a tqdm frame joined by '\\r' stays on the line it starts). Prints, per record line,
the 1-based log line, its kind and value, and the record's value; exits 1 on any mismatch.
"""
import json
import re
import sys

log, rec = sys.argv[1:3]
pat = re.compile(r"(?:^|\r|\])(?:(?P<step>\d+): |(?P<kind>training|validation) loss: )(?P<v>[-+0-9.eE]+|nan|inf)$")
printed = []
for n, line in enumerate(open(log, encoding="utf-8", newline="").read().split("\n"), 1):
    m = pat.search(line)
    if m:
        kind = "train" if (m["step"] is not None or m["kind"] == "training") else "valid"
        printed.append((n, kind, None if m["step"] is None else int(m["step"]), m["v"]))
records = []
for r in map(json.loads, open(rec)):
    if "loss" in r:
        records.append(("train", r["step"], r["loss"]))
    elif "valid_loss" in r:
        records.append(("valid", r["step"], r["valid_loss"]))
bad = 0
if len(printed) != len(records):
    print(f"COUNT MISMATCH: {len(printed)} printed, {len(records)} recorded"); bad += 1
for (n, kind, pstep, v), (rkind, rstep, rv) in zip(printed, records):
    ok = kind == rkind and (pstep is None or pstep == rstep) and float(v) == rv and v == repr(rv)
    bad += not ok
    print(f"line {n:3d} {kind:5s} printed_step={pstep} record_step={rstep} printed={v} record={rv!r} {'ok' if ok else 'MISMATCH'}")
print(f"{len(printed)} printed values, {sum(1 for p in printed if p[1]=='train')} train, "
      f"{sum(1 for p in printed if p[1]=='valid')} valid; {bad} mismatches")
sys.exit(1 if bad else 0)
