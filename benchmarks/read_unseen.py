"""How many logs of projects with no pattern set read right: public excerpts against values read by hand.

    python benchmarks/read_unseen.py DIR [DIR ...] [--json] [--quiet] [--resolved]

Each DIR holds `SOURCES_unseen.toml` and one `<name>.log` per `[excerpt.<name>]`. The logs come from projects
logparse has no pattern set for, so no excerpt names a `format`: each is read by
`logparse.frame.assemble.parse_log` with every shipped set and none forced, as `logparse parse LOG` reads it.

"Read right" is strict: an excerpt reads right when EVERY key of its `expect` table holds, and no exception is
raised on the way. The keys (the same as tests/data/public/SOURCES.toml's, with `row_count`):

    steps            the step column of the step rows (kind "step"), in file order: exactly this list
    <column>         {step = value}: that column on the first step row of that step (eval_loss at a step no
                     training line prints: the evaluation event at that step); a key no logparse column names
                     is looked up as the reading keeps it, x_<key>
    rows_at_line     {line = {column = value}}: the one step row of that line has these values
    facts            {fact = value}: the value the analysis takes of each fact the log states (the last,
                     steps/runfacts.py log_facts)
    events           [{event, line, step?}]: exactly the evaluations and checkpoint saves the frame yields, in order
    events_count     {event = n}: how many events of that kind
    no_rows          true: no step row with a step number
    timestamp_diffs  {"a-b" = seconds}: timestamp of step b minus that of step a (first rows)
    no_eval_loss_at_lines  rows (by line) that must carry no eval_loss

Numbers compare with a relative tolerance of 1e-6 (the values are as printed, some after a unit change such as
MiB -> GiB that a reader may compute in another order). A column missing from the frame is a difference.

The report gives, per excerpt, `ok` or `WRONG` with the first difference (all of them with --all), then the
total "N of M read right" per folder, and which expect keys fail most often. Exit status 0 always: this
measures, it does not gate (tests/test_unseen_excerpts.py gates the committed corpus).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SOURCES = "SOURCES_unseen.toml"
REL_TOL = 1e-6
SPECIAL = {
    "steps",
    "rows_at_line",
    "facts",
    "events",
    "events_count",
    "no_rows",
    "timestamp_diffs",
    "no_eval_loss_at_lines",
    "unattached",
}


def _kept(key: str) -> str:
    """The column a key no logparse column names is kept in (`x_` and the key, as the reading keeps it)."""
    return "x_" + key


def load_corpus(folder: Path) -> dict:
    """The excerpts of a folder's SOURCES_unseen.toml that were found (`found = false` entries are notes)."""
    data = tomllib.loads((folder / SOURCES).read_text())
    return {name: e for name, e in data.get("excerpt", {}).items() if e.get("found", True)}


# what an excerpt may call a fact, and the facts' own name (core/schema.py FACTS)
FACT_NAMES = {
    "params": "total_params",
    "n_params": "total_params",
    "gpu_name": "device_name",
    "num_heads": "num_attention_heads",
}


def _missing(got) -> bool:
    if got is None:
        return True
    try:
        return isinstance(got, float) and math.isnan(got)
    except TypeError:
        return False


def _same(got, want) -> bool:
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)  # (a loss printed as `nan`: read as NaN)
    if _missing(got):
        return False
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        try:
            return math.isclose(float(got), float(want), rel_tol=REL_TOL, abs_tol=1e-12)
        except (TypeError, ValueError):
            return False
    return got == want


def _step_rows(rows):
    if rows.empty or "kind" not in rows:
        return rows
    return rows[rows["kind"] == "step"]


def _evaluated_at(events, step: int):
    """The loss of the first evaluation event at `step`, None where there is none."""
    if events.empty or "eval_loss" not in events or "step" not in events:
        return None
    hit = events[(events["event"] == "eval") & (events["step"] == step) & events["eval_loss"].notna()]
    return None if hit.empty else hit.iloc[0]["eval_loss"]


def differences(parsed, expect: dict, steps=None) -> list[str]:
    """Every way the parsed log differs from `expect`, in the order the keys are checked; empty when it reads right.
    `steps`, when given, is the frame the rows are checked in (the resolved one); else the parsed frame's step rows."""
    out: list[str] = []
    rows = _step_rows(parsed.rows) if steps is None else steps
    has_steps = not rows.empty and "step" in rows
    numbered = rows[rows["step"].notna()] if has_steps else rows
    if expect.get("no_rows") and has_steps and len(numbered):
        out.append(f"no_rows: {len(numbered)} step rows, first step {numbered['step'].iloc[0]}")
    if "steps" in expect:
        got = [int(s) for s in numbered["step"]] if has_steps else []
        if got != expect["steps"]:
            out.append(f"steps: {_short(got)}, expected {_short(expect['steps'])}")
    for column, by_step in expect.items():
        if column in SPECIAL:
            continue
        for step, want in by_step.items():
            hit = numbered[numbered["step"] == int(step)] if has_steps else numbered
            if (not has_steps or not len(hit)) and column == "eval_loss":
                # (an evaluation at a step no training line prints, before the first or after the last: the
                # evaluation event at that step carries its loss)
                got = _evaluated_at(parsed.events, int(step))
                if got is None or not _same(got, want):
                    out.append(
                        f"{column} at step {step}: no row for that step, and no evaluation event with it"
                    )
                continue
            if not has_steps or not len(hit):
                out.append(f"{column} at step {step}: no row for that step")
                continue
            got = hit.iloc[0].get(column, hit.iloc[0].get(_kept(column)))
            if not _same(got, want):
                out.append(f"{column} at step {step}: {got!r}, expected {want!r}")
    for line, values in expect.get("rows_at_line", {}).items():
        hit = rows[rows["line"] == int(line)] if "line" in rows else rows.iloc[0:0]
        if len(hit) != 1:
            out.append(f"rows_at_line {line}: {len(hit)} step rows at that line, expected 1")
            continue
        for column, want in values.items():
            got = hit.iloc[0].get(column)
            if not _same(got, want):
                out.append(f"{column} at line {line}: {got!r}, expected {want!r}")
    for line in expect.get("no_eval_loss_at_lines", []):
        hit = rows[rows["line"] == int(line)] if "line" in rows else rows.iloc[0:0]
        if len(hit) and "eval_loss" in hit and not _missing(hit.iloc[0]["eval_loss"]):
            out.append(f"eval_loss at line {line}: {hit.iloc[0]['eval_loss']!r}, expected none")
    for pair, want in expect.get("timestamp_diffs", {}).items():
        a, b = (int(x) for x in pair.split("-"))
        try:
            ta = numbered[numbered["step"] == a].iloc[0]["timestamp"]
            tb = numbered[numbered["step"] == b].iloc[0]["timestamp"]
            got = float((tb - ta).total_seconds() if hasattr(tb - ta, "total_seconds") else tb - ta)
        except (KeyError, IndexError, TypeError, ValueError):
            out.append(f"timestamp {pair}: not both stamped")
            continue
        if not math.isclose(got, want, abs_tol=1e-6):
            out.append(f"timestamp {pair}: {got}, expected {want}")
    from logparse.steps.runfacts import log_facts

    facts = log_facts(parsed, []) if expect.get("facts") else {}
    for fact, want in expect.get("facts", {}).items():
        # (an excerpt's `params` is the parameter count the log states, which the facts call total_params, and
        # summary.json's model.params takes; its `gpu_name` the facts' device_name)
        seen = facts.get(fact) or facts.get(FACT_NAMES.get(fact, fact))
        if not seen:
            out.append(f"fact {fact}: missing, expected {want!r}")
        elif not _same(seen.value, want):
            out.append(f"fact {fact}: {seen.value!r}, expected {want!r}")
    events = [] if parsed.events.empty else parsed.events.to_dict("records")
    if "events" in expect:
        # (the kinds an excerpt lists: its evaluations and checkpoint saves; a run's end, a restart or a load is
        # another kind of event, which the excerpts do not list)
        got = [_event(e) for e in events if _event(e)["event"] in LISTED_EVENTS]
        want = [_event(e) for e in expect["events"]]
        keyed = [{k: g[k] for k in w if k in g} for g, w in zip(got, want, strict=False)]
        if len(got) != len(want) or keyed != want:
            out.append(f"events: {_short(got)}, expected {_short(want)}")
    for kind, n in expect.get("events_count", {}).items():
        got_n = sum(1 for e in events if e["event"] == EVENT_NAMES.get(kind, kind))
        if got_n != n:
            out.append(f"events_count {kind}: {got_n}, expected {n}")
    if "unattached" in expect and parsed.lines.get("unattached") != expect["unattached"]:
        out.append(f"unattached: {parsed.lines.get('unattached')}, expected {expect['unattached']}")
    return out


# an event's name as an excerpt may write it, and logparse's
EVENT_NAMES = {"checkpoint": "checkpoint_save", "save": "checkpoint_save", "evaluation": "eval"}
LISTED_EVENTS = ("eval", "checkpoint_save")


def _event(e: dict) -> dict:
    out = {"event": EVENT_NAMES.get(e["event"], e["event"]), "line": int(e["line"])}
    step = e.get("step")
    if step is not None and not _missing(step):
        out["step"] = int(step)
    return out


def _short(items: list, n: int = 8) -> str:
    text = repr(items[:n])
    return text[:-1] + f", ... ({len(items)} in all)]" if len(items) > n else text


def read_excerpt(folder: Path, name: str, entry: dict, resolved: bool = False) -> dict:
    """One excerpt read with no format forced: its detected format and its differences from `expect`. With
    `resolved`, the rows checked are those `logparse parse` writes (one per optimizer step, lines of one step
    joined) instead of the parsed frame's (one per printed step line)."""
    from logparse.api import parse
    from logparse.frame.assemble import parse_log
    from logparse.patterns.sets import load_sets

    path = folder / f"{name}.log"
    try:
        parsed = parse_log(str(path), load_sets())
        steps = parse(str(path)) if resolved else None
    except Exception as exc:  # a crash on an unseen log is a wrong reading, reported, not the end of the run
        message = str(exc).replace(str(path), path.name)
        return {
            "name": name,
            "format": None,
            "differences": [f"raised {type(exc).__name__}: {message[:160]}"],
        }
    return {
        "name": name,
        "format": parsed.format,
        "differences": differences(parsed, entry.get("expect", {}), steps),
    }


def failing_keys(result: dict) -> set[str]:
    keys = set()
    for diff in result["differences"]:
        head = diff.split(":")[0]
        keys.add(head.split(" at ")[0].split(" ")[0])
    return keys


def measure(folder: Path, resolved: bool = False) -> list[dict]:
    corpus = load_corpus(folder)
    return [read_excerpt(folder, name, corpus[name], resolved) for name in sorted(corpus)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--all", action="store_true", help="every difference, not only the first")
    ap.add_argument("--quiet", action="store_true", help="only the totals")
    ap.add_argument(
        "--resolved",
        action="store_true",
        help="check the rows `logparse parse` writes (one per step) instead of the parsed frame's step lines",
    )
    args = ap.parse_args(argv)
    report = {}
    for folder in args.folders:
        results = measure(folder, args.resolved)
        report[str(folder)] = results
        if args.json:
            continue
        right = sum(1 for r in results if not r["differences"])
        if not args.quiet:
            for r in results:
                status = "ok   " if not r["differences"] else "WRONG"
                print(f"{status} {r['name']:<48} [{r['format']}]")
                for diff in r["differences"] if args.all else r["differences"][:1]:
                    print(f"        {diff}")
        tally = Counter(k for r in results for k in failing_keys(r))
        print(f"{folder}: {right} of {len(results)} read right")
        if tally:
            print("  failing keys: " + ", ".join(f"{k} {n}" for k, n in tally.most_common()))
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
