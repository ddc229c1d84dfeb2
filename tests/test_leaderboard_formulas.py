"""The leaderboard and the page say which FLOPs formula each MFU was counted by, and mark one counted by
another formula than most: 31.7% by 6N stood beside 45% by palm with nothing to say they differ."""

from __future__ import annotations

from pathlib import Path

import matplotlib.colors
import pandas as pd
import pytest

from logparse.batch import page
from logparse.batch.page import OTHER_COLOR, OTHER_MARK, formula_marks, write_page

from .test_page import parse


def run(name: str, mfu: float | None, formula: str | None) -> dict:
    return {
        "run": name,
        "status": "ok",
        "mfu": mfu,
        "formula": formula,
        "stable_start": 20,
        "stable_end": 500,
    }


# three runs by palm, the torchtitan sample's 6N beside them, one run without an MFU (its formula not compared)
ROWS = [
    run("megatron", 0.450, "palm"),
    run("maxtext", 0.451, "palm"),
    run("nemo", 0.449, "palm"),
    run("torchtitan", 0.317, "6n"),
    run("no_hw", None, "6n"),
]


@pytest.fixture
def drawn(monkeypatch):
    """The leaderboard's figure as write_page saves it: (texts with their gid and colour, bar colours)."""
    figures = []
    save = page.save_figure
    monkeypatch.setattr(page, "save_figure", lambda fig, *a, **k: figures.append(fig) or save(fig, *a, **k))

    def draw(tmp_path: Path, rows: list[dict]):
        write_page(tmp_path, pd.DataFrame(rows))
        (fig,) = figures[-1:]
        import matplotlib.text

        texts = [
            (t.get_text(), t.get_gid(), t.get_color())
            for t in fig.findobj(matplotlib.text.Text)
            if t.get_text()
        ]
        bars = [p.get_facecolor() for ax in fig.axes for p in ax.patches]
        return texts, bars

    return draw


def test_the_leaderboard_states_the_common_formula_and_marks_the_other_bar(tmp_path, drawn):
    texts, bars = drawn(tmp_path, ROWS)
    by_gid = {}
    for text, gid, color in texts:
        by_gid.setdefault(gid, []).append((text, color))
    (caption,) = by_gid["formula:caption"]
    assert "palm formula for 3 of 4 bars" in caption[0] and OTHER_MARK in caption[0]
    # the 6N bar says its formula, in the colour of its bar; the others say no formula of their own
    (other,) = by_gid["bar:other"]
    assert other[0].startswith(f"31.7% {OTHER_MARK} 6n") and matplotlib.colors.same_color(
        other[1], OTHER_COLOR
    )
    assert (
        all(OTHER_MARK not in t and "6n" not in t for t, _ in by_gid["bar:label"])
        and len(by_gid["bar:label"]) == 3
    )
    # the bars: best first, the fourth (31.7%) in the other colour
    assert [matplotlib.colors.same_color(b, OTHER_COLOR) for b in bars] == [False, False, False, True]
    # the footnote names the formula and the option that counts every run one way
    note = " ".join(t for t, _ in by_gid["formula:note"])
    assert "6n (1 run)" in note and "formula=palm counts every run one way" in note  # (the API names it so)


def test_one_formula_for_all_marks_nothing(tmp_path, drawn):
    texts, bars = drawn(tmp_path, [r for r in ROWS if r["formula"] == "palm"])
    assert ("FLOPs/token by the palm formula for every bar", "formula:caption") in [
        (t, g) for t, g, _ in texts
    ]
    assert not any(g in ("bar:other", "formula:note") for _, g, _ in texts)
    assert not any(matplotlib.colors.same_color(b, OTHER_COLOR) for b in bars)


def mfu_cell(p, name: str) -> str:
    row = next(r for r in p.rows if r["run"] == name)
    return " ".join("".join(row["cells"][3]).split())  # report, run, framework, MFU


def test_the_page_says_each_runs_formula_and_marks_the_other(tmp_path):
    write_page(tmp_path, pd.DataFrame(ROWS))
    html = (tmp_path / "index.html").read_text()
    p = parse(html)
    assert "FLOPs/token by the palm formula for 3 of 4 runs" in html
    assert [mfu_cell(p, name) for name in ("megatron", "maxtext", "nemo")] == [
        "45.0%palm",
        "45.1%palm",
        "44.9%palm",
    ]
    assert mfu_cell(p, "torchtitan") == f"31.7%{OTHER_MARK} 6n"
    assert html.count('class="formula other"') == 1
    assert "6n" not in mfu_cell(p, "no_hw")  # no MFU: its formula is compared with nothing


@pytest.mark.parametrize(
    "formulas, common, other",
    [
        (["palm", "palm", "6n"], "palm", {"6n"}),
        (["6n", "palm"], "6n", {"palm"}),  # a tie: the best run's formula (the first, by MFU) is the one
        (["palm", None, None], None, {"palm"}),  # most runs state none: the one that does is marked
        (["megatron"], "megatron", set()),
    ],
)
def test_the_common_formula_is_most_runs_and_on_a_tie_the_best_runs(formulas, common, other):
    rows = [run(f"r{i}", 0.5 - i / 100, f) for i, f in enumerate(formulas)]
    marks = formula_marks(rows)
    assert marks.common == common
    assert {f for f in formulas if marks.other(f)} == other
