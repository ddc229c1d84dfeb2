"""Check every printed iteration block of a log against the TensorBoard scalars dumped by dump_tb.py."""
import re, sys, json
log, tbf = sys.argv[1], sys.argv[2]
tb = {k: {s: v for s, v, _ in rows} for k, rows in json.load(open(tbf)).items()}
lines = open(log).read().split("\n")
blocks, cur = [], None
for n, line in enumerate(lines, 1):
    m = re.search(r"Learning iteration (\d+)/(\d+)", line)
    if m:
        cur = {"it": int(m.group(1)), "total": int(m.group(2)), "line": n}
        blocks.append(cur)
        continue
    if cur is None:
        continue
    m = re.match(r"\s*([^:]+):\s+(\S+)", line)
    if m:
        cur[m.group(1).strip()] = m.group(2)
bad = 0
for b in blocks:
    it = b["it"]
    checks = [
        ("Steps per second", int(b["Steps per second"]), int(tb["Perf/total_fps"][it])),
        ("Collection time", b["Collection time"], f'{tb["Perf/collection_time"][it]:.3f}s'),
        ("Learning time", b["Learning time"], f'{tb["Perf/learning_time"][it]:.3f}s'),
        ("Iteration time", b["Iteration time"], f'{tb["Perf/collection_time"][it] + tb["Perf/learning_time"][it]:.2f}s'),
        ("Mean value loss", b["Mean value loss"], f'{tb["Loss/value"][it]:.4f}'),
        ("Mean surrogate loss", b["Mean surrogate loss"], f'{tb["Loss/surrogate"][it]:.4f}'),
        ("Mean entropy loss", b["Mean entropy loss"], f'{tb["Loss/entropy"][it]:.4f}'),
        ("Mean action std", b["Mean action std"], f'{tb["Policy/mean_std"][it]:.2f}'),
    ]
    if "Mean reward" in b:
        checks.append(("Mean reward", b["Mean reward"], f'{tb["Train/mean_reward"][it]:.2f}'))
    for name, printed, rec in checks:
        if str(printed) != str(rec):
            bad += 1
            print(f"MISMATCH line {b['line']} it {it} {name}: log {printed} record {rec}")
print(log, "blocks", len(blocks), "its", [b["it"] for b in blocks][:3], "...", "total", blocks[0]["total"], "mismatches", bad)
print("header lines:", [b["line"] for b in blocks])
