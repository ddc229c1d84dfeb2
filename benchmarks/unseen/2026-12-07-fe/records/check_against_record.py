"""Check every iteration line of each log against CatBoost's own record of the run (evals_result JSON, time_left.tsv)."""
import csv, json, re, sys

LINE = re.compile(r"^(\d+):\tlearn: (\S+)\ttest: (\S+)\tbest: (\S+) \((\d+)\)\ttotal: (.+?)\tremaining: (.+)$")
UNIT = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def secs(text):
    return sum(float(v) * UNIT[u] for v, u in re.findall(r"([\d.]+)(us|ms|s|m|h)", text))


for name, learn_m, test_m in [("catboost_classifier_eval", "Logloss", "Logloss"),
                              ("catboost_regressor_custom", "RMSE", "RMSE"),
                              ("catboost_classifier_early_stopping", "Logloss", "Logloss")]:
    rec = json.load(open(f"records/{name}/{name}_evals_result.json"))["evals_result"]
    passed = {int(r["iter"]): int(r["Passed"]) for r in csv.DictReader(open(f"records/{name}/time_left.tsv"), delimiter="\t")}
    steps, bad = [], 0
    for n, line in enumerate(open(f"{name}.log"), 1):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        it = int(m[1]); steps.append(it)
        for printed, ref in ((m[2], rec["learn"][learn_m][it]), (m[3], rec["validation"][test_m][it])):
            if f"{ref:.7f}" != printed:
                bad += 1; print("MISMATCH", name, it, printed, ref)
        t = secs(m[6])
        if abs(t * 1000 - passed[it]) > max(1.0, 0.006 * passed[it]):
            bad += 1; print("TIME MISMATCH", name, it, m[6], passed[it])
        print(f"  {name} line {n} step {it} learn {m[2]} test {m[3]} total {m[6]} -> {t:g}s record Passed {passed[it]}ms")
    print(name, "steps:", steps, "mismatches:", bad)
