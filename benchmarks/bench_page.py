"""Size of a batch's index.html and the time headless Chromium takes to open it, for many runs.

    python benchmarks/bench_page.py [--runs 20000] [--repeat 3] [--no-thumbs] [--dir DIR]

Builds `--runs` index rows directly (no log is analyzed): run names of a sweep, 5% failed with a one-line
error, the others with an MFU or the index's reason for none, three warnings each, a hardware and GPU count,
the goodput ledger's columns; each ok run with a report.png and its thumbnail (hard links of one small PNG,
so the page links and shows them as a batch's would). Then writes the page through
`logparse.batch.page.write_page` (index.html and leaderboard.png) and reports the time that took, the size
of index.html and its bytes per run, and the wall time of `chromium --headless --dump-dom` on it (the DOM is
dumped once the page has loaded and its script has run), the median of `--repeat` runs, less that of an empty
page. Runs with the code of the checkout it is started from, so the same command measures before and after
a change (`git stash`).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--window-size=1400,900",
)
WARNINGS = (
    "step time from the timestamps' differences (the log prints none): the first step's time is unknown",
    "sequence length from the config dump (seq_length 4096), not the step lines",
    "2 lines not matched by any pattern (see summary.json lines.unmatched_examples)",
)


def rows(n: int, out: Path, thumbs: bool) -> list[dict]:
    """`n` index rows of a sweep, with each ok run's report.png and thumb.png under `out` when `thumbs`."""
    png = out / "one.png"
    if thumbs:
        from PIL import Image

        Image.new("RGB", (320, 140), "white").save(png)
    made = []
    for i in range(n):
        name = f"sweep_lr{(i % 7) + 1}e-4_bs{2 ** (i % 5 + 4)}_seed{i:05d}"
        folder = out / name
        if i % 20 == 7:
            made.append(
                {
                    "run": name,
                    "source": f"/data/runs/{name}/train.log",
                    "status": "error",
                    "error": f"/data/runs/{name}/train.log: no pattern set recognises this log (tried accelerate, "
                    "colossalai, composer, deepspeed, generic, hf_trainer, megatron, nemo, torchtitan); run "
                    f"`logparse patterns explain /data/runs/{name}/train.log` to see its most common line shapes",
                    "cached": False,
                    "out": str(folder),
                }
            )
            continue
        if thumbs:
            folder.mkdir(parents=True)
            (folder / "report.png").hardlink_to(png)
            (folder / "thumb.png").hardlink_to(png)
        with_mfu = i % 4 != 3
        made.append(
            {
                "run": name,
                "source": f"/data/runs/{name}/train.log",
                "status": "ok",
                "error": None,
                "run_status": "complete",
                "format": "megatron",
                "gpus": 8,
                "gpus_source": "log",
                "hardware": "h100-sxm" if with_mfu else None,
                "dtype": "bf16",
                "peak_tflops_per_gpu": 989.4 if with_mfu else None,
                "formula": "palm" if i % 50 else "6n",
                "seq_len": 4096,
                "steps": 500,
                "warmup_steps": 20,
                "stable_start": 20,
                "stable_end": 500,
                "mfu": 0.30 + (i * 7919 % 1500) / 10000 if with_mfu else None,
                "tokens_per_s": 77000.0 + i,
                "tokens_per_s_per_gpu": 9625.0 + i / 8,
                "step_time_s": 6.79,
                "dips": i % 3,
                "dip_lost_s": 14.2 * (i % 3),
                "restarts": i % 2,
                "warnings": len(WARNINGS),
                "warning_texts": " | ".join(WARNINGS),
                "goodput": 0.9,
                "wall_s": 3600.0,
                "gpu_hours": 8.0,
                "gpu_hours_warmup": 0.4,
                "gpu_hours_restart_recovery": 0.3 * (i % 2),
                "cached": False,
                "out": str(folder),
            }
        )
    return made


def chromium_seconds(chromium: str, url: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([chromium, *CHROMIUM_FLAGS, "--dump-dom", url], capture_output=True, timeout=1800)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-thumbs", action="store_true", help="no report.png or thumbnail per run")
    ap.add_argument("--dir", type=Path, default=None, help="where to write (default: a temporary folder)")
    args = ap.parse_args()

    from logparse.batch.engine import index_frame
    from logparse.batch.page import write_page

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        out = Path(tmp)
        t = time.perf_counter()
        index = index_frame(rows(args.runs, out, not args.no_thumbs))
        made = time.perf_counter() - t
        t = time.perf_counter()
        write_page(out, index)
        wrote = time.perf_counter() - t
        size = (out / "index.html").stat().st_size
        print(f"{args.runs:,} runs: rows made in {made:.1f} s; write_page {wrote:.1f} s")
        print(f"index.html: {size / 1e6:.2f} MB, {size / args.runs:,.0f} bytes per run")
        if chromium is None:
            print("chromium is not installed: no load time")
            return
        (out / "empty.html").write_text("<!DOCTYPE html><html><body></body></html>")
        empty = chromium_seconds(chromium, (out / "empty.html").as_uri(), args.repeat)
        page = chromium_seconds(chromium, (out / "index.html").as_uri(), args.repeat)
        print(
            f"chromium --dump-dom: {page:.1f} s (an empty page {empty:.1f} s: {page - empty:.1f} s to load the "
            f"index, median of {args.repeat})"
        )


if __name__ == "__main__":
    main()
