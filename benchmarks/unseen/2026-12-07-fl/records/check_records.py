"""Check each log's training lines against the JSONL record of the same run, and print the values used in
SOURCES_unseen.toml (steps, loss/lr/step_time samples), with the record's unrounded value beside the printed one.

    python check_records.py    (run from records/)
"""
import json, re

RUNS = {
    "stanza_tagger": (r"Finished STEP (\d+)/(\d+), loss = ([\d.]+) \(([\d.]+) sec/batch\), lr: ([\d.]+)$",
                      "global_step", ["loss", "duration", "current_lr"]),
    "stanza_lemmatizer": (r": step (\d+)/(\d+) \(epoch \d+/\d+\), loss = ([\d.]+) \(([\d.]+) sec/batch\), lr: ([\d.]+)$",
                          "global_step", ["loss", "duration", "current_lr"]),
    "stanza_tokenizer": (r"INFO: Step +(\d+)/ *(\d+) Loss: ([\d.]+)$", "step", ["loss"]),
}
for name, (pat, stepvar, cols) in RUNS.items():
    recs = [json.loads(l) for l in open(name + "_record.jsonl")]
    steprecs = [r for r in recs if re.search(pat, "INFO: " + r["message"])]
    lines = open("../" + name + ".log").read().splitlines()
    printed = [(i + 1, re.search(pat, l)) for i, l in enumerate(lines) if re.search(pat, l)]
    assert len(printed) == len(steprecs), (name, len(printed), len(steprecs))
    steps = []
    for (ln, m), r in zip(printed, steprecs):
        assert int(m.group(1)) == r[stepvar]
        steps.append(r[stepvar])
        for k, col in enumerate(cols):
            txt = m.group(3 + k)
            nd = len(txt.split(".")[1])
            assert f"{r[col]:.{nd}f}" == txt, (name, ln, col, r[col], txt)
    print(f"== {name}: {len(steps)} step lines, all printed values equal the record rounded as printed")
    print("steps =", steps)
    for (ln, m), r in zip(printed, steprecs):
        print(f"  line {ln}: step {r[stepvar]} printed {m.groups()[2:]} record " +
              ", ".join(f"{c}={r[c]!r}" for c in cols))
    for r in recs:
        if "dev_score" in r and ("dev_score =" in r["message"] or "Dev score" in r["message"]):
            ln = next(i + 1 for i, l in enumerate(lines) if l.endswith(r["message"].split("\n")[0]))
            print(f"  EVAL line {ln}: {r['message']!r} step/epoch={r.get(stepvar)}/{r.get('epoch')} dev_score={r['dev_score']!r}")
