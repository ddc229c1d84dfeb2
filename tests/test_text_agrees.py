"""Every count the text summary states agrees with the files it describes: for every sample and test log,
with analyze's defaults and with --gpus 8 --hw h100 (tests/test_outputs_unchanged.py's cases, whose
analyses this reuses), the text is read here with regexes of its own, and each number it states is
recounted from steps.csv (each row's step, step_span, phase, regime, segment and flags) and summary.json:
the logged steps and the steps they stand for, the run's status, the stable window's steps and what its
range leaves out ("N in dips", "N in the warm-up after the resume", "N not logged"), the warmup's steps,
the counts of shifts, dips and restarts, the ledger's parts and its unknown categories, the flagged
steps. Nothing is taken from the code that writes the text."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from tests.conftest import SAMPLES
from tests.test_outputs_unchanged import case_params, made

# the ledger's categories as the text names them (summary.json's goodput.badput keys)
LABELS = {
    "startup": "startup",
    "checkpoints": "checkpoint",
    "eval": "eval",
    "warmup": "warmup",
    "slow steps": "slow_steps",
    "redone steps": "wasted_progress",
    "hang": "hang",
    "restart": "restart_recovery",
    "other": "other",
}
UNIT_S = {"s": 1.0, "min": 60.0, "h": 3600.0, "days": 86400.0}
STEPS_LINE = re.compile(
    r"^  steps (-?\d+)\.\.(-?\d+) \((\d+) logged(?: lines, (\d+) steps?)?\), "
    r"(complete|incomplete|crashed|diverged|status unknown)\b"
)
STABLE_LINE = re.compile(
    r"^  stable steps (-?\d+)\.\.(-?\d+) \(([^()]*)\)(?: \[regime (\d+) of (\d+), [^\]]*\])?: "
)
COUNTS_LINE = re.compile(
    r"^  warmup: (?:(\d+) steps?|(unknown) \([^)]*\)); (\d+) shifts?; (\d+) dips?; (\d+) restarts?$"
)
PART = re.compile(r"(?<![\w-])(" + "|".join(LABELS) + r") (\d+(?:\.\d+)?) (s|min|h|days)\b")


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _f(value: str) -> float | None:
    return float(value) if value not in ("", None) else None


class Counted:
    """steps.csv's rows, recounted."""

    def __init__(self, rows: list[dict[str, str]], summary: dict) -> None:
        self.rows = rows
        self.step = [float(r["step"]) for r in rows]
        self.span = [_f(r.get("step_span", "")) or 1.0 for r in rows]
        self.phase = [r.get("phase", "") for r in rows]
        self.flags = [set(filter(None, r.get("flags", "").split(","))) for r in rows]
        regime = summary["stable"]["regime"]
        chosen = [
            p == "stable" and r.get("regime") not in (None, "") and int(float(r["regime"])) == regime
            for p, r in zip(self.phase, rows, strict=True)
        ]
        # the stable mask, less the odd step whose MFU is above 100% (all of them stay when most are)
        odd = [c and "mfu_above_100" in f for c, f in zip(chosen, self.flags, strict=True)]
        self.dropped = odd if sum(chosen) and sum(odd) / sum(chosen) < 0.5 else [False] * len(rows)
        self.window = [c and not d for c, d in zip(chosen, self.dropped, strict=True)]
        self.chosen = chosen

    def steps(self, keep: list[bool]) -> int:
        return int(round(sum(s for s, k in zip(self.span, keep, strict=True) if k)))

    def inside(self, lo: float, hi: float) -> list[bool]:
        return [lo <= s <= hi for s in self.step]

    def left_out(self, lo: float, hi: float) -> dict[str, int]:
        """The steps of the rows in lo..hi that are not the window's, by the text's reason; and `not logged`,
        the range's steps no row stands for."""
        inside = self.inside(lo, hi)
        out = [i and not w for i, w in zip(inside, self.window, strict=True)]
        resumes = {
            r["segment"] for r, o, p in zip(self.rows, out, self.phase, strict=True) if o and p == "restart"
        }
        after = (
            "in the warm-up after the resume" if len(resumes) <= 1 else "in the warm-ups after the resumes"
        )
        by_phase = {"dip": "in dips", "restart": after, "warmup": "in the warm-up", "": "not timed"}
        reasons: dict[str, int] = {}
        for k, o in enumerate(out):
            if not o:
                continue
            if self.dropped[k]:
                why = "with an MFU above 100%"
            else:
                why = by_phase.get(self.phase[k], "in another regime")
            reasons[why] = reasons.get(why, 0) + int(round(self.span[k]))
        reasons["not logged"] = int(hi - lo + 1) - self.steps(inside)
        return {k: v for k, v in reasons.items() if v}


def _seconds(amount: str, unit: str) -> tuple[float, float]:
    """A printed duration as seconds, and how far rounding may have moved it."""
    scale = UNIT_S[unit]
    half = (0.5 if "." not in amount else 0.05) * scale
    return float(amount) * scale, half + 1e-9


def check(text: str, s: dict, rows: list[dict[str, str]]) -> list[str]:
    """The problems: each a sentence of the text that says other than the files."""
    problems: list[str] = []
    lines = text.splitlines()
    c = Counted(rows, s)

    def expect(what: str, said: object, true: object) -> None:
        if said != true:
            problems.append(f"{what}: the text says {said!r}, the files {true!r}")

    # the steps and the status
    m = next(filter(None, map(STEPS_LINE.match, lines)), None)
    if m is None:
        return ["no steps line"]
    expect("first step", int(m[1]), int(min(c.step)))
    expect("last step", int(m[2]), int(max(c.step)))
    expect("logged rows", int(m[3]), len(rows))
    expect("logged rows (summary)", int(m[3]), s["steps"]["count"])
    expect("steps the rows stand for", int(m[4]) if m[4] else int(m[3]), c.steps([True] * len(rows)))
    expect("status", m[5], s["status"] or "status unknown")

    # the stable window and what its range leaves out
    st = s["stable"]
    m = next(filter(None, map(STABLE_LINE.match, lines)), None)
    if m is None:
        expect("a stable window", None, st["start_step"])
        expect("no stable window, no stable row", 0, sum(c.window))
    else:
        lo, hi, desc = int(m[1]), int(m[2]), m[3]
        expect("stable range", (lo, hi), (st["start_step"], st["end_step"]))
        window = c.steps(c.window)
        expect("window steps (summary)", window, st["steps"])
        lines_form = re.fullmatch(
            r"(\d+) logged lines?, (\d+) steps?(?:: each stands for the (\d+) steps up to it)?", desc
        )
        less = re.fullmatch(r"(\d+) steps?: (\d+) less (.+)", desc)
        if lines_form:
            expect("window rows", int(lines_form[1]), sum(c.window))
            expect("window steps", int(lines_form[2]), window)
            if lines_form[3]:
                expect("steps each row stands for", int(lines_form[3]) * sum(c.window), window)
        elif less:
            parts = {}
            for part in less[3].split(" and "):
                n, why = part.split(" ", 1)
                parts[why] = int(n)
            expect("window steps", int(less[1]), window)
            expect("the range's steps", int(less[2]), hi - lo + 1)
            expect("what the range leaves out", parts, c.left_out(lo, hi))
            expect("the parts add up", int(less[1]) + sum(parts.values()), int(less[2]))
        else:
            plain = re.fullmatch(r"(\d+) steps?", desc)
            if plain is None:
                return [*problems, f"stable count not read: {desc!r}"]
            expect("window steps", int(plain[1]), window)
            expect(
                "nothing left out of the range", {}, {k: v for k, v in c.left_out(lo, hi).items() if v > 0}
            )

    # warmup, shifts, dips, restarts
    m = next(filter(None, map(COUNTS_LINE.match, lines)), None)
    if m is None:
        return [*problems, "no warmup line"]
    # the steps the first attempt's rows stand for up to its last warmup row
    first = rows[0]["segment"] if rows else None
    last_warm = max((k for k, p in enumerate(c.phase) if p == "warmup"), default=-1)
    warm = c.steps([k <= last_warm and r["segment"] == first for k, r in enumerate(rows)])
    expect("warmup steps", None if m[2] else int(m[1]), s["warmup_steps"])
    if not m[2]:
        expect("warmup steps (steps.csv)", int(m[1]), warm)
    expect("shifts", int(m[3]), len(s.get("shifts", [])))
    expect("dips", int(m[4]), len(s["dips"]))
    expect("restarts", int(m[5]), len(s["restarts"]))
    dips_rows = [st_ for st_, p in zip(c.step, c.phase, strict=True) if p == "dip"]
    ranges = [(d["start_step"], d["end_step"]) for d in s["dips"]]
    expect("dip rows outside a dip", [x for x in dips_rows if not any(a <= x <= b for a, b in ranges)], [])
    expect("dips without a dip row", [r for r in ranges if not any(r[0] <= x <= r[1] for x in dips_rows)], [])
    expect("dip lines", sum(1 for line in lines if line.startswith("    dip at ")), min(5, len(s["dips"])))
    restart_segments = {str(g["segment"]) for g in s["segments"] if g["kind"] == "restart"}
    expect("restarts (steps.csv's attempts)", int(m[5]), len(restart_segments & {r["segment"] for r in rows}))
    expect("restart lines", sum(1 for line in lines if line.startswith("    restart after step ")), int(m[5]))

    _check_ledger(lines, s, problems, expect)

    # the flagged steps
    counted: dict[str, int] = {}
    for fs in c.flags:
        for f in fs:
            counted[f] = counted.get(f, 0) + 1
    said = next((line for line in lines if line.startswith("  flagged steps: ")), None)
    named = {}
    if said is not None:
        named = {
            k: int(v) for k, v in (p.rsplit(" ", 1) for p in said[len("  flagged steps: ") :].split(", "))
        }
    expect("flagged steps", named, counted)
    expect("flagged steps (summary)", named, s.get("flagged_steps") or {})
    return problems


def _check_ledger(lines: list[str], s: dict, problems: list[str], expect) -> None:
    g = s.get("goodput")
    at = next((i for i, line in enumerate(lines) if line.startswith("  goodput ")), None)
    if g is None or at is None:
        expect("a ledger", at is not None, g is not None)
        return
    line = lines[at]
    m = re.match(r"  goodput (\d+)% of ", line)
    expect("goodput", int(m[1]) if m else None, None if g["goodput"] is None else round(g["goodput"] * 100))
    named = {}
    for label, amount, unit in PART.findall(line):
        named[LABELS[label]] = _seconds(amount, unit)
    shown = {k for k, v in g["badput"].items() if v is not None and v >= 0.5}
    expect("the ledger's parts", set(named), shown)
    for k, (sec, slack) in named.items():
        if k in shown and abs(sec - g["badput"][k]) > slack:
            problems.append(f"ledger {k}: the text says {sec:g} s, the summary {g['badput'][k]:g} s")
    said_unknown: set[str] = set()
    follow = lines[at + 1] if at + 1 < len(lines) else ""
    if follow.startswith("    unknown"):
        for group in follow.strip().split("; "):
            said_unknown |= {LABELS[x] for x in group.rpartition(": ")[2].split(", ")}
    expect("the ledger's unknown parts", said_unknown, set(g["unknown"]))
    expect(
        "the ledger's unknown parts (badput null)",
        said_unknown,
        {k for k, v in g["badput"].items() if v is None},
    )
    timed = any(
        re.search(r"\d s lost|\d min lost|\d h lost", x) for x in lines if x.startswith("    dip at ")
    )
    if timed and "slow_steps" in said_unknown and "step times" in follow:
        problems.append("the text times a dip but says slow steps are unknown without step times")


@pytest.mark.parametrize("path,how", case_params())
def test_the_text_counts_agree_with_steps_csv_and_the_summary(path, how):
    out = made(path, how)
    if "error" in out:  # nothing analysed, nothing said
        return
    problems = check(out["text"], json.loads(out["summary"]), _rows(out["steps_csv"]))
    assert problems == [], "\n".join(problems)


def test_the_resumed_runs_warmup_is_named_not_called_not_logged():
    """megatron_resumed: steps 301-305 are in steps.csv, the warm-up after the resume from step 300's
    checkpoint (line 456 of the log: the attempt's first five iterations, 86 s down to 7.8 s): the stable
    window 20..500 leaves out those 5 of its 481 steps, and none is missing from the log."""
    out = made(SAMPLES / "megatron_resumed_8xh100.log", "h100x8")
    stable = next(line for line in out["text"].splitlines() if line.startswith("  stable steps "))
    assert "(476 steps: 481 less 5 in the warm-up after the resume)" in stable
    rows = [r for r in _rows(out["steps_csv"]) if 301 <= int(r["step"]) <= 305]
    assert [r["phase"] for r in rows] == ["restart"] * 5


def test_the_checker_sees_a_sentence_that_disagrees():
    """The check reads the text apart from the code that writes it: a count changed in the text is caught."""
    out = made(SAMPLES / "megatron_resumed_8xh100.log", "h100x8")
    summary, rows = json.loads(out["summary"]), _rows(out["steps_csv"])
    assert check(out["text"], summary, rows) == []
    for old, new in [
        ("481 less 5 in the warm-up after the resume", "481 less 5 not logged"),
        ("warmup: 19 steps", "warmup: 20 steps"),
        ("; 1 restart", "; 2 restarts"),
        ("(500 logged)", "(499 logged)"),
    ]:
        assert old in out["text"]
        assert check(out["text"].replace(old, new), summary, rows) != [], new
