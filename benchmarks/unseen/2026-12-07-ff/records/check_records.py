"""Check every table row of each log against the framework's own records (run from the capture folder).

records/<run>_info.jsonl: every info dict the training loop handed to the logger (records/info_logger.py).
records/<run>_console.jsonl: spaCy ConsoleLogger.v3's own output_file (where configured).
"""
import json
import re

RUNS = {"spacy_textcat": "textcat", "spacy_ner": "ner", "spacy_tagger_progress": "tagger"}
ROW = re.compile(r"^\s*(\d+)\s+(\d+)((?:\s+-?\d+\.\d\d)+)\s*$")

for run, pipe in RUNS.items():
    lines = open(f"{run}.log", encoding="utf-8").read().split("\n")
    rows = [(i + 1, m) for i, l in enumerate(lines) if (m := ROW.match(l))]
    info = [json.loads(l) for l in open(f"records/{run}_info.jsonl")]
    try:
        console = [json.loads(l) for l in open(f"records/{run}_console.jsonl")]
    except FileNotFoundError:
        console = None
    assert len(rows) == len(info), (run, len(rows), len(info))
    for k, ((ln, m), rec) in enumerate(zip(rows, info)):
        e, s = int(m.group(1)), int(m.group(2))
        vals = m.group(3).split()
        assert (e, s) == (rec["epoch"], rec["step"]), (run, ln)
        pipes = list(rec["losses"])  # tok2vec first where present, as the columns
        for p, v in zip(pipes, vals):
            assert f"{rec['losses'][p]:.2f}" == v, (run, ln, p, rec["losses"][p], v)
        assert f"{rec['score']:.2f}" == vals[-1], (run, ln)
        if console:
            c = console[k]
            assert c["step"] == s and c["epoch"] == e and c["losses"] == {p: rec["losses"][p] for p in c["losses"]}
    print(run, "rows", len(rows), "lines", rows[0][0], "-", rows[-1][0])
    print("  steps =", [int(m.group(2)) for _, m in rows])
    print("  losses:", {r["step"]: r["losses"] for r in info})
    print("  seconds:", {r["step"]: r["seconds"] for r in info})
print("all rows match the records")
