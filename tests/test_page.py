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


def test_each_thumbnail_is_drawn_with_its_report_and_is_what_the_page_would_make(
    batch, tmp_path, monkeypatch
):
    """A batch writes each run's thumbnail where it draws the report, from the canvas (the page's
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
    monkeypatch.setattr(
        Image, "open", lambda *a, **k: opened.append(a) or pytest.fail("a thumbnail made again")
    )
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
    assert [r["run"] for r in page.rows] == ["<script>alert(1)</script>", "a<b>&c"]  # failed rows first
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


# ------------------------------------------------------------------------------------------------
# the page at 1400 px: no scrolling sideways, an option never cut at its hyphens

# set on <body> once the page has loaded: how wide the document is against the window, and how many
# options (span.flag) the browser broke over two lines
MEASURE = """<script>
window.addEventListener("load", function () {
  var b = document.body, flags = Array.prototype.slice.call(document.querySelectorAll(".flag"));
  b.setAttribute("data-inner-width", window.innerWidth);
  b.setAttribute("data-scroll-width", document.documentElement.scrollWidth);
  b.setAttribute("data-flags", flags.length);
  b.setAttribute("data-flags-broken", flags.filter(function (f) { return f.getClientRects().length > 1; }).length);
  b.setAttribute("data-flag-texts", flags.map(function (f) { return f.textContent; }).join("|"));
  // what a reader copies of a reason: the selection of its cell, as the clipboard would get it
  var why = document.querySelector(".why");
  if (why) {
    var range = document.createRange();
    range.selectNodeContents(why);
    window.getSelection().addRange(range);
    b.setAttribute("data-copied", window.getSelection().toString());
  }
});
</script>"""


def measured(out: Path, width: int = 1400) -> dict:
    """The page's body attributes (MEASURE) in a window `width` px wide: a copy of index.html beside it (its
    links and thumbnails load as the page's) with the measuring script added."""
    html = (out / "index.html").read_text()
    probe = out / "measure.html"
    probe.write_text(html.replace("</body>", MEASURE + "</body>"))
    proc = run_chromium(
        f"--window-size={width},900", "--virtual-time-budget=3000", "--dump-dom", probe.as_uri()
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return parse(proc.stdout).body


@needs_chromium
def test_in_chromium_the_page_fits_1400_px_and_keeps_each_option_on_one_line(batch):
    """The shipped samples' batch: the page used to be 1,616 px wide at a 1400 px window (the hardware cell
    wrapped into 6-9 lines repeating the MFU reason; `--peak-tflops` broke at its hyphens)."""
    from logparse.core.errors import cli_names

    out, index = batch
    with cli_names():  # the page as the command writes it (another test here writes it as the API would)
        write_page(out, index)
    body = measured(out)
    assert body["data-inner-width"] == "1400"
    assert int(body["data-scroll-width"]) <= 1400, body
    assert int(body["data-flags"]) > 0 and body["data-flags-broken"] == "0", body
    # what a reader copies is the option as typed: ASCII hyphens (no U+2011), the value beside it
    flags = body["data-flag-texts"].split("|")
    assert "--gpus" in flags and all(f.isascii() and f.startswith("--") for f in flags), flags
    assert body["data-copied"] == "no MFU: GPUs unknown (pass --gpus)", (
        body
    )  # generic_kv_cpu prints no GPU count


def hostile_rows(n: int = 6) -> pd.DataFrame:
    """Rows whose texts are as long as a batch makes them: names without a place to break, a failure's whole
    error, a run without an MFU for every reason the index knows, the largest figures."""
    long_name = "x" * 90
    rows = [
        {
            "run": long_name,
            "status": "error",
            "error": "no pattern set recognises this log (tried " + ", ".join(["megatron"] * 40) + ")",
        },
        {
            "run": "sweep_" + "_".join(f"lr{i}e-4" for i in range(12)),
            "status": "ok",
            "format": "annotated_transformer",
            "stable_start": 1_000_000,
            "stable_end": 2_000_000,
            "tokens_per_s_per_gpu": 123_456_789.0,
            "step_time_s": 12345.6,
            "dips": 12345,
            "dip_lost_s": 1_234_567.0,
            "restarts": 1234,
            "warnings": 99,
        },
        {
            "run": "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-" * 2,
            "status": "ok",
            "mfu": 0.451,
            "formula": "megatron-bridge",
            "hardware": "rtx-a6000",
            "gpus": 16384,
            "stable_start": 20,
            "stable_end": 500,
        },
    ]
    rows += [
        {
            "run": f"run{i}",
            "status": "ok",
            "mfu": 0.4 + i / 100,
            "formula": "palm",
            "hardware": "h100-sxm",
            "gpus": 8,
            "stable_start": 20,
            "stable_end": 500,
        }
        for i in range(n - len(rows))
    ]
    return pd.DataFrame(rows)


@needs_chromium
def test_in_chromium_rows_with_the_longest_texts_fit_1400_px(tmp_path):
    write_page(tmp_path, hostile_rows())
    body = measured(tmp_path)
    assert int(body["data-scroll-width"]) <= 1400, body
    assert body["data-flags-broken"] == "0", body


# ------------------------------------------------------------------------------------------------
# a page of thousands of runs: a part of them, the leaderboard's best first; the index files hold all


def many_rows(n: int) -> pd.DataFrame:
    """`n` runs of a sweep: every 10th failed, every 4th without an MFU, three warnings each."""
    warnings = " | ".join(["step time from the timestamps' differences (the log prints none)"] * 3)
    rows = []
    for i in range(n):
        if i % 10 == 3:
            rows.append(
                {"run": f"run{i:05d}", "status": "error", "error": f"no pattern set recognises run{i:05d}"}
            )
            continue
        rows.append(
            {
                "run": f"run{i:05d}",
                "status": "ok",
                "format": "megatron",
                "mfu": None if i % 4 == 1 else (i * 37 % 100) / 200,
                "formula": "palm",
                "hardware": "h100-sxm",
                "gpus": 8,
                "stable_start": 20,
                "stable_end": 500,
                "tokens_per_s_per_gpu": 9600.0,
                "step_time_s": 6.8,
                "dips": 1,
                "dip_lost_s": 14.0,
                "restarts": 0,
                "warnings": 3,
                "warning_texts": warnings,
            }
        )
    return pd.DataFrame(rows)


def test_a_page_of_many_runs_lists_the_failed_then_the_best_and_stays_small(tmp_path, monkeypatch):
    from logparse.batch import page

    monkeypatch.setattr(page, "PAGE_ROWS", 40)  # as 500 of 20,000 runs, in less time
    index = many_rows(400)  # 40 failed, 270 with an MFU, 90 without
    page.write_index_page(tmp_path, index)  # (the page alone: the leaderboard's drawing is tested above)
    html = (tmp_path / "index.html").read_text()
    p = parse(html)
    assert len(p.rows) == 40
    # a fifth of the page for the first failed runs, then the others by MFU, best first
    failed = [r["run"] for r in p.rows if r["class"] == "error"]
    assert failed == [f"run{i:05d}" for i in range(3, 80, 10)]
    ok = index[index["status"] == "ok"].sort_values("mfu", ascending=False, kind="stable")
    assert [r["run"] for r in p.rows[8:]] == ok["run"].head(32).tolist()
    assert (
        "This page lists 40 of the 400 runs: the first 8 of the 40 failed, then 32 of the 360 others" in html
    )
    assert "40 failed" in html and "400 runs" in html  # the counts are the batch's, not the page's
    # its size is that of its 40 rows, whatever the batch's
    (tmp_path / "small").mkdir()
    page.write_index_page(tmp_path / "small", many_rows(40))
    small = (tmp_path / "small" / "index.html").stat().st_size
    assert len(html.encode()) < small * 1.1
    assert len(html.encode()) / 40 < 2500  # bytes per row shown, the page's head and script included


def test_a_page_of_mostly_failed_runs_is_filled_with_them(tmp_path, monkeypatch):
    from logparse.batch import page

    monkeypatch.setattr(page, "PAGE_ROWS", 40)
    index = pd.DataFrame(
        [{"run": f"bad{i:03d}", "status": "error", "error": "no steps"} for i in range(60)]
        + [{"run": f"good{i}", "status": "ok", "mfu": 0.4 + i / 100} for i in range(5)]
    )
    page.write_index_page(tmp_path, index)
    html = (tmp_path / "index.html").read_text()
    runs = [r["run"] for r in parse(html).rows]
    assert runs == [f"bad{i:03d}" for i in range(35)] + [f"good{i}" for i in (4, 3, 2, 1, 0)]
    assert "This page lists 40 of the 65 runs: the first 35 of the 60 failed, then the 5 others" in html
