"""Real public log excerpts (tests/data/public) through the frame stage, against values read by hand.

SOURCES.toml names each excerpt's source and lists what its lines say; this test only checks what
logparse.frame.assemble.parse_log yields (rows, facts, events), not what the resolve stage makes of them.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).resolve().parent / "data" / "public"


def _load_sources() -> dict:
    """SOURCES.toml and every SOURCES_<group>.toml beside it, merged (one file per group of frameworks)."""
    merged: dict = {"excerpt": {}, "splice": {}}
    for path in sorted(HERE.glob("SOURCES*.toml")):
        data = tomllib.loads(path.read_text())
        for table in ("excerpt", "splice"):
            for name, entry in data.get(table, {}).items():
                assert name not in merged[table], f"{name} listed twice ({path.name})"
                merged[table][name] = entry
    return merged


SOURCES = _load_sources()
EXCERPTS = {name: e for name, e in SOURCES["excerpt"].items() if e.get("found", True)}
NOT_FOUND = {name: e for name, e in SOURCES["excerpt"].items() if not e.get("found", True)}


def _same(got, want) -> bool:
    if got is None or (isinstance(got, float) and math.isnan(got)):
        return False
    if isinstance(want, float) or isinstance(got, float):
        return math.isclose(float(got), float(want), rel_tol=1e-9, abs_tol=1e-12)
    return got == want


def _steps(rows):
    if rows.empty or "kind" not in rows:
        return rows
    return rows[rows["kind"] == "step"]


def _first_row(rows, step):
    hit = rows[rows["step"] == step]
    assert len(hit), f"no row for step {step}"
    return hit.iloc[0]


def check(parsed, expect: dict) -> None:
    rows = _steps(parsed.rows)
    special = {
        "steps",
        "rows_at_line",
        "facts",
        "events",
        "no_rows",
        "unattached",
        "timestamp_diffs",
        "events_count",
        "no_eval_loss_at_lines",
    }
    if expect.get("no_rows"):
        assert rows.empty or "step" not in rows or rows["step"].isna().all()
    if "steps" in expect:
        assert [int(s) for s in rows["step"]] == expect["steps"]
    for column, by_step in expect.items():
        if column in special:
            continue
        for step, want in by_step.items():
            got = _first_row(rows, int(step)).get(column)
            assert _same(got, want), f"{column} at step {step}: {got!r}, expected {want!r}"
    for line, values in expect.get("rows_at_line", {}).items():
        hit = rows[rows["line"] == int(line)]
        assert len(hit) == 1, f"no step row at line {line}"
        for column, want in values.items():
            got = hit.iloc[0].get(column)
            assert _same(got, want), f"{column} at line {line}: {got!r}, expected {want!r}"
    for line in expect.get("no_eval_loss_at_lines", []):
        hit = rows[rows["line"] == int(line)].iloc[0]
        assert "eval_loss" not in hit or hit["eval_loss"] is None or math.isnan(hit["eval_loss"])
    for pair, want in expect.get("timestamp_diffs", {}).items():
        a, b = (int(x) for x in pair.split("-"))
        got = _first_row(rows, b)["timestamp"] - _first_row(rows, a)["timestamp"]
        assert got == pytest.approx(want, abs=1e-6), f"timestamp {pair}: {got}, expected {want}"
    for fact, want in expect.get("facts", {}).items():
        assert fact in parsed.facts, f"fact {fact} missing"
        assert _same(parsed.facts[fact][0].value, want)
    if "events" in expect:
        events = parsed.events
        got = [] if events.empty else events.to_dict("records")
        assert len(got) == len(expect["events"]), got
        for ev, want in zip(got, expect["events"], strict=True):
            assert ev["event"] == want["event"] and ev["line"] == want["line"]
            if "step" in want:
                assert ev["step"] == want["step"]
    for kind, n in expect.get("events_count", {}).items():
        assert int((parsed.events["event"] == kind).sum()) == n
    if "unattached" in expect:
        assert parsed.lines["unattached"] == expect["unattached"]


@pytest.mark.parametrize("name", sorted(EXCERPTS))
def test_public_excerpt(name: str) -> None:
    entry = EXCERPTS[name]
    path = HERE / f"{name}.log"
    assert path.exists(), path
    parsed = parse_log(str(path), load_sets(), entry["format"])
    assert parsed.lines["malformed"] == 0
    check(parsed, entry.get("expect", {}))


@pytest.mark.parametrize("name", sorted(n for n, e in EXCERPTS.items() if e.get("detect")))
def test_public_excerpt_detected(name: str) -> None:
    """`detect = true`: the excerpt is recognised without --format, and reads the same."""
    entry = EXCERPTS[name]
    parsed = parse_log(str(HERE / f"{name}.log"), load_sets())
    assert parsed.format == entry["format"], f"detected {parsed.format!r}"
    assert parsed.lines["malformed"] == 0
    check(parsed, entry.get("expect", {}))


@pytest.mark.parametrize("name", sorted(SOURCES.get("splice", {})))
def test_spliced_excerpts(name: str, tmp_path: Path) -> None:
    """Two real excerpts of different jobs, one after the other: the frame keeps each step as printed."""
    entry = SOURCES["splice"][name]
    text = "".join((HERE / f"{part}.log").read_text() for part in entry["parts"])
    path = tmp_path / f"{name}.log"
    path.write_text(text)
    parsed = parse_log(str(path), load_sets(), entry["format"])
    check(parsed, entry["expect"])


def test_every_excerpt_file_is_listed() -> None:
    listed = set(SOURCES["excerpt"]) | set(tomllib.loads((HERE / "MOE_SOURCES.toml").read_text())["excerpt"])
    files = {p.stem for p in HERE.glob("*.log")}
    assert files <= listed, files - listed
    for name, entry in SOURCES["excerpt"].items():
        assert entry.get("source") or not entry.get("found", True), name
        if not entry.get("found", True):
            assert entry.get("searched"), f"{name}: say what was searched"
