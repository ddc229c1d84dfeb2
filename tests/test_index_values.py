"""The batch index takes any value a run's row holds, and every JSON logparse writes is strict JSON."""

from __future__ import annotations

import json
import math
import shutil

import pandas as pd
import pytest

from logparse.batch import engine
from logparse.core import jsontext
from tests.conftest import SAMPLES, run_apart

TITAN = SAMPLES / "torchtitan_llama3-8b_8xh100.log"  # 47 lines: analyzed in about a second


def strict(text: str):
    """json.loads as a strict reader (jq, JSON.parse): the bare words NaN and Infinity are refused."""

    def refuse(word: str):
        raise ValueError(f"not JSON: {word}")

    return json.loads(text, parse_constant=refuse)


def ok_row(run: str, **values) -> dict:
    return {"run": run, "source": f"{run}.log", "status": "ok", "cached": False, "warnings": 0, **values}


HOSTILE = {
    "gpus": 10**20,  # a GPU count from a run folder's file, beyond int64
    "seq_len": 1e20,  # the same as a float
    "steps": 2**63,  # one past int64's largest
    "restarts": float("nan"),  # unknown, as a frame says it
    "dips": "3",  # a string where a count goes
    "mfu": float("inf"),
    "tokens_per_s": "fast",
    "step_time_s": float("-inf"),
    "hardware": 7,  # a number where a text goes
}


def test_one_rows_values_of_any_kind_never_stop_the_index(tmp_path):
    rows = [
        ok_row("good", gpus=8, mfu=0.45, steps=500, hardware="h100-sxm"),
        ok_row("hostile", **HOSTILE, warning_texts="a warning of its own", warnings=1),
        {"run": "broken", "source": "broken.log", "status": "error", "error": "no steps", "cached": False},
    ]
    index = engine.index_frame(rows)
    engine.write_index(tmp_path, index)  # index.csv, index.json, leaderboard.png and index.html

    written = strict((tmp_path / "index.json").read_text())
    by_run = {r["run"]: r for r in written}
    assert set(by_run) == {"good", "hostile", "broken"}
    # the other runs keep every value
    assert (by_run["good"]["gpus"], by_run["good"]["mfu"], by_run["good"]["steps"]) == (8, 0.45, 500)
    # each value that does not fit its column is empty, and the run's warnings say which column
    hostile = by_run["hostile"]
    for col in HOSTILE:
        assert hostile[col] is None, col
    unfit = {
        "gpus",
        "seq_len",
        "steps",
        "dips",
        "mfu",
        "tokens_per_s",
        "step_time_s",
        "hardware",
    }  # NaN: unknown
    texts = hostile["warning_texts"].split(" | ")
    assert texts[0] == "a warning of its own"
    assert sorted(t.split()[3] for t in texts[1:]) == sorted(unfit)
    assert hostile["warnings"] == 1 + len(unfit)
    assert "100000000000000000000" not in (tmp_path / "index.html").read_text()  # the value is not shown
    csv = pd.read_csv(tmp_path / "index.csv")
    assert csv.loc[csv["run"] == "good", "gpus"].item() == 8
    assert csv.loc[csv["run"] == "hostile", "gpus"].isna().item()


def test_the_largest_and_smallest_int64_counts_are_kept():
    index = engine.index_frame(
        [ok_row("a", steps=2**63 - 1), ok_row("b", steps=-(2**63)), ok_row("c", steps=12.0)]
    )
    assert index["steps"].tolist() == [2**63 - 1, -(2**63), 12]


def test_a_huge_gpu_count_or_a_nan_price_from_a_sidecar_leaves_every_output_strict_and_the_index_written(
    tmp_path,
):
    runs, out = tmp_path / "runs", tmp_path / "out"
    sidecars = {"huge": "gpus = 100000000000000000000\n", "price": "gpu_hour_cost = nan\n"}
    for name in ("plain", *sidecars):
        (runs / name).mkdir(parents=True)
        shutil.copy(TITAN, runs / name / "train.log")
    for name, text in sidecars.items():
        (runs / name / "logparse.toml").write_text(text)
    result = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1", "--hw", "h100"])
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    rows = {r["run"]: r for r in strict((out / "index.json").read_text())}
    assert set(rows) == {"plain_train", "huge_train", "price_train"}, rows.keys()
    assert rows["plain_train"]["status"] == "ok" and rows["plain_train"]["gpus"] == 8  # the log's 8 GPUs
    assert rows["huge_train"]["gpus"] is None  # refused where it is read, or left out of the index
    assert (out / "index.html").exists() and (out / "leaderboard.png").exists()
    # every JSON written is strict: a NaN price is no cost, null
    for path in [out / "index.json", *out.glob("*/summary.json"), *out.glob("*/.logparse-cache.json")]:
        text = path.read_text()
        assert "NaN" not in text and "Infinity" not in text, path
        strict(text)
    summary = out / "price_train" / "summary.json"
    if summary.exists():  # (unless the price is refused where it is read)
        assert strict(summary.read_text())["goodput"]["cost"] is None


def test_summary_json_writes_a_figure_that_is_not_finite_as_null(tmp_path):
    from logparse import api

    analysis = api.analyze(str(TITAN), hw="h100")
    analysis.summary["goodput"]["cost"] = float("nan")  # what a NaN price made of it
    analysis.summary["stable"]["mfu_mean"] = float("inf")
    analysis.save(tmp_path)
    summary = strict((tmp_path / "summary.json").read_text())
    assert summary["goodput"]["cost"] is None and summary["stable"]["mfu_mean"] is None
    assert summary["stable"]["tokens_per_s"] == analysis.summary["stable"]["tokens_per_s"]


@pytest.mark.parametrize(
    "value, expected",
    [
        (
            {"a": float("nan"), "b": [1.5, float("inf"), {"c": -math.inf}], "d": (1, "x")},
            {"a": None, "b": [1.5, None, {"c": None}], "d": [1, "x"]},
        ),
        (10**30, 10**30),  # a big integer is valid JSON
        (True, True),
    ],
)
def test_strict_json_writes_null_for_what_is_not_finite(value, expected):
    text = jsontext.dumps(value)
    assert strict(text) == expected


def test_strict_json_takes_numpys_floats():
    import numpy as np

    text = jsontext.dumps([np.float32("nan"), np.float64(2.5), np.int64(3)], default=str)
    assert text == "[null, 2.5, 3]"
