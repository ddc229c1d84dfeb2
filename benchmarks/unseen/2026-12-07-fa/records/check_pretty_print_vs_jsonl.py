"""Parse every pretty_print (YAML) block of the log and compare chosen keys with the JSONL record, line by line."""
import sys, json, math, yaml
log, jsonl = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(jsonl)]
lines = open(log).read().split("\n")
blocks, cur = [], None
for n, line in enumerate(lines, 1):
    if line.startswith("date: "):
        cur = {"start": n, "text": []}
    if cur is not None:
        cur["text"].append(line)
        if line.startswith("training_iteration: "):
            cur["step_line"] = n
    if cur is not None and line.startswith("trial_id: "):
        cur["end"] = n
        cur["data"] = yaml.safe_load("\n".join(cur["text"]))
        blocks.append(cur)
        cur = None
assert len(blocks) == len(recs), (len(blocks), len(recs))
def get(d, path):
    for k in path.split("/"):
        d = d[k]
    return d
keys = ["training_iteration", "learners/default_policy/total_loss", "learners/default_policy/policy_loss",
        "learners/default_policy/vf_loss", "learners/default_policy/default_optimizer_learning_rate",
        "time_this_iter_s", "time_total_s", "env_runners/episode_return_mean"]
bad = 0
for b, r in zip(blocks, recs):
    for k in keys:
        a, c = get(b["data"], k), get(r, k)
        if not (a == c or (isinstance(a, float) and math.isnan(a) and math.isnan(c))):
            bad += 1
            print("MISMATCH", b["start"], k, a, c)
print("blocks", len(blocks), "mismatches", bad)
for b in blocks:
    d = b["data"]
    print(f'lines {b["start"]}-{b["end"]} step_line {b["step_line"]} it {d["training_iteration"]} total_loss {get(d,"learners/default_policy/total_loss")} '
          f'lr {get(d,"learners/default_policy/default_optimizer_learning_rate")} time_this_iter_s {d["time_this_iter_s"]} time_total_s {d["time_total_s"]}')
