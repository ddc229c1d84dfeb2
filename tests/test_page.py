"""page: the batch's leaderboard.png and index.html, checked as HTML and in a headless Chromium."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

from logparse.batch.page import LEADERBOARD_TOP, write_leaderboard, write_page
from tests.conftest import batch_with_a_broken_run

RUNS = ("megatron_llama2-7b_8xh100", "torchtitan_llama3-8b_8xh100", "generic_kv_cpu")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


class Page(HTMLParser):
    """The table's rows (their data-run, cells' text and title attributes), links and images."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self.links: list[str] = []
        self.imgs: list[dict] = []
        self.body: dict = {}
        self.titles: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "tr" and "data-run" in a:
            self.rows.append({"run": a["data-run"], "class": a.get("class"), "cells": []})
        elif tag == "td" and self.rows:
            self._cell = []
            self.rows[-1]["cells"].append(self._cell)
        elif tag == "a":
            self.links.append(a["href"])
        elif tag == "img":
            self.imgs.append(a)
        if "title" in a:
            self.titles.append(a["title"])

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def text(self, run: str) -> str:
        row = next(r for r in self.rows if r["run"] == run)
        return " ".join("".join(c) for c in row["cells"])


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    """Three sample logs and a broken one, through `logparse batch --hw h100`."""
    out = batch_with_a_broken_run(tmp_path_factory.mktemp("page"), RUNS, "--hw", "h100")
    assert (out / "leaderboard.png").stat().st_size > 0 and (out / "index.html").stat().st_size > 0
    return out, pd.read_csv(out / "index.csv")


def local_target(out: Path, href: str) -> Path:
    parts = urlsplit(href)
    assert parts.scheme in ("", "file"), href  # nothing fetched from the network
    return out / unquote(parts.path) if not parts.scheme else Path(unquote(parts.path))


def test_the_page_has_one_row_per_run_links_that_exist_and_the_error(batch):
    out, index = batch
    html = (out / "index.html").read_text()
    page = parse(html)
    assert sorted(r["run"] for r in page.rows) == sorted([*RUNS, "broken"])
    assert "no training step lines" in page.text("broken")
    assert next(r for r in page.rows if r["run"] == "broken")["class"] == "error"
    assert "45.0%" in page.text("megatron_llama2-7b_8xh100")
    assert "steps 20..500" in page.text("megatron_llama2-7b_8xh100")
    # a run without an MFU says why, in the tooltip
    assert any("pass --gpus" in t for t in page.titles)
    # thumbnails for the analyzed runs, none for the broken one, and every link leads to a file
    assert sorted(i["alt"] for i in page.imgs) == sorted(f"report of {r}" for r in RUNS)
    assert all(i["loading"] == "lazy" for i in page.imgs)
    for href in page.links + [i["src"] for i in page.imgs]:
        assert local_target(out, href).exists(), href
    for run in RUNS:
        assert f"{run}/summary.json" in page.links and f"{run}/report.png" in page.links
    assert "http://" not in html and "https://" not in html  # works offline


def test_each_thumbnail_is_drawn_with_its_report_and_is_what_the_page_would_make(batch, tmp_path, monkeypatch):
    """A batch writes each run's thumbnail where it draws the report, from the canvas (issue 24: the page's
    process decoded and shrank 200 reports one after another); it is the thumbnail the page makes from
    report.png, and writing the page again makes none."""
    from PIL import Image

    from logparse.batch import page

    out, index = batch
    for run in RUNS:
        report, thumb = out / run / "report.png", out / run / "thumb.png"
        # written with the run's outputs (before its summary.json, the last of them), not after the runs
        assert thumb.stat().st_mtime_ns <= (out / run / "summary.json").stat().st_mtime_ns
        copy = tmp_path / run / "report.png"
        copy.parent.mkdir()
        shutil.copy(report, copy)
        made = page.write_thumbnail(copy)  # from the PNG's pixels
        assert made is not None and made.read_bytes() == thumb.read_bytes()
    opened = []
    monkeypatch.setattr(Image, "open", lambda *a, **k: opened.append(a) or pytest.fail("a thumbnail made again"))
    write_page(out, index)
    assert opened == []


def test_names_are_escaped_and_warning_texts_become_tooltips(tmp_path):
    index = pd.DataFrame(
        [
            {"run": "a<b>&c", "status": "ok", "mfu": 0.4, "warnings": 1, "warning_texts": '["x < y"]'},
            {"run": "<script>alert(1)</script>", "status": "error", "error": "bad <input>"},
        ]
    )
    write_page(tmp_path, index)
    html = (tmp_path / "index.html").read_text()
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html
    assert "a&lt;b&gt;&amp;c" in html and "bad &lt;input&gt;" in html
    page = parse(html)
    assert [r["run"] for r in page.rows] == ["<script>alert(1)</script>", "a<b>&c"]  # failed rows first (issue 22)
    assert "x < y" in page.titles
    assert "bad <input>" in page.text("<script>alert(1)</script>")


@pytest.mark.parametrize("n_mfu, n_without", [(1, 0), (0, 3), (200, 30)])
def test_the_leaderboard_grows_with_the_runs(tmp_path, n_mfu, n_without):
    rows = [
        {"run": f"run{i:03d}", "status": "ok", "mfu": 0.3 + i / 1000, "stable_start": 10, "stable_end": 90}
        for i in range(n_mfu)
    ]
    rows += [{"run": f"fail{i}", "status": "error", "error": f"no steps ({i})"} for i in range(n_without)]
    path = write_leaderboard(tmp_path, pd.DataFrame(rows))
    import matplotlib.image

    height, width = matplotlib.image.imread(path).shape[:2]
    assert width == 1200
    shown = min(n_mfu, LEADERBOARD_TOP)
    assert height >= 100 * (0.28 * max(shown, 1) + 0.2 * min(n_without, 25))


def run_chromium(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@needs_chromium
def test_in_chromium_the_query_sorts_and_every_thumbnail_loads(batch):
    out, index = batch
    url = (out / "index.html").as_uri() + "?sort=mfu&desc=1"
    proc = run_chromium("--virtual-time-budget=2000", "--dump-dom", url)
    assert proc.returncode == 0, proc.stderr[-2000:]
    page = parse(proc.stdout)
    assert page.body.get("data-ready") == "1", "the page's script did not finish"
    assert page.body.get("data-sort") == "mfu" and page.body.get("data-desc") == "1"
    by_mfu = index[index["mfu"].notna()].sort_values("mfu", ascending=False)["run"].tolist()
    order = [r["run"] for r in page.rows]
    assert order[: len(by_mfu)] == by_mfu  # the runs without an MFU after them
    assert set(order[len(by_mfu) :]) == {"broken", "generic_kv_cpu"}
    assert len(page.imgs) == len(RUNS) and all(i.get("data-loaded") == "1" for i in page.imgs), page.imgs

    # ascending by run name
    proc = run_chromium(
        "--virtual-time-budget=2000", "--dump-dom", url.replace("sort=mfu&desc=1", "sort=run")
    )
    assert [r["run"] for r in parse(proc.stdout).rows] == sorted([*RUNS, "broken"])


@needs_chromium
def test_in_chromium_a_screenshot_renders(batch, tmp_path):
    out, _ = batch
    shot = tmp_path / "shot.png"
    proc = run_chromium(f"--screenshot={shot}", "--window-size=1280,900", (out / "index.html").as_uri())
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.read_bytes()[:4] == b"\x89PNG"
