"""What the page and the leaderboard show of a run's texts: a name with a right-to-left override reads as
it is written (the override shown as its escape), and a run folder's logparse.toml values never appear in
an error the index and the page show (README: errors about a logparse.toml name the file, the key and what
kind of value is wrong, never the value itself)."""

from __future__ import annotations

import shutil
import unicodedata

import matplotlib.text
import pandas as pd
import pytest

from logparse.batch import page
from logparse.batch.page import visible, write_page
from tests.conftest import SAMPLES, cut_before_its_first_step, run_apart

from .test_page import parse

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: `report_\u202egol.txt` shows as `report_txt.log`
HOSTILE = {
    "run": f"report_{RLO}gol.txt",
    "error": "bad line\u2067 isolate \u200b zero width \u00ad soft hyphen \u2028 line separator",
    "warning": "a warning with a \u2066left-to-right isolate and a \U000e0041 tag",
}


def shown_controls(text: str) -> list[str]:
    """The characters of `text` that show otherwise than they are: format (Cf), line and paragraph separators,
    control characters other than a newline or a tab."""
    return [
        c
        for c in text
        if unicodedata.category(c) in ("Cf", "Zl", "Zp", "Cs")
        or (unicodedata.category(c) == "Cc" and c not in "\n\t")
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        (f"report_{RLO}gol.txt", "report_\\u202egol.txt"),
        ("a\u2066b\u2069c", "a\\u2066b\\u2069c"),  # isolates
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("tag\U000e0041", "tag\\U000e0041"),  # beyond the BMP
        ("tab\tand\nnewline stay", "tab\tand\nnewline stay"),  # a tooltip's lines
        ("bell\x07", "bell\\u0007"),
        ("plain: é 中文 ×", "plain: é 中文 ×"),  # letters of any script are not controls
    ],
)
def test_visible_escapes_what_would_show_otherwise(text, expected):
    assert visible(text) == expected


def hostile_index() -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "run": HOSTILE["run"],
                "status": "ok",
                "mfu": 0.4,
                "formula": "palm",
                "warnings": 1,
                "warning_texts": HOSTILE["warning"],
            },
            {"run": f"fail{RLO}ed", "status": "error", "error": HOSTILE["error"]},
            {"run": f"no{RLO}mfu", "status": "ok", "mfu": None, "hardware": f"h100{RLO}"},
        ]
    )


def test_the_page_shows_no_character_that_reorders_or_hides_text(tmp_path):
    write_page(tmp_path, hostile_index())
    html = (tmp_path / "index.html").read_text()
    assert shown_controls(html) == []
    p = parse(html)
    # the name as written, with the override's escape where it was; in its cell, its attribute and the tooltips
    assert {r["run"] for r in p.rows} == {"report_\\u202egol.txt", "fail\\u202eed", "no\\u202emfu"}
    assert "report_\\u202egol.txt" in p.text("report_\\u202egol.txt").replace(" ", "")
    assert "bad line\\u2067 isolate \\u200b zero width \\u00ad soft hyphen \\u2028 line separator" in p.text(
        "fail\\u202eed"
    )
    assert any("\\u2066left-to-right" in t for t in p.titles)


def test_the_leaderboard_draws_no_character_that_reorders_or_hides_text(tmp_path, monkeypatch):
    figures = []
    save = page.save_figure
    monkeypatch.setattr(page, "save_figure", lambda fig, *a, **k: figures.append(fig) or save(fig, *a, **k))
    write_page(tmp_path, hostile_index())
    texts = [t.get_text() for fig in figures for t in fig.findobj(matplotlib.text.Text)]
    assert any("report_\\u202egol.txt" in t for t in texts)  # the bar's name
    assert any("no\\u202emfu" in t for t in texts)  # the list of runs without an MFU
    assert shown_controls("".join(texts)) == []


# ------------------------------------------------------------------------------------------------
# a logparse.toml's values in the errors the index and the page show

TITAN = SAMPLES / "torchtitan_llama3-8b_8xh100.log"  # 47 lines: analyzed in about a second


# each run folder's logparse.toml, the value it must not show, and its key
SIDECARS = {
    "hw": ('hw = "zq-secret-hw"', "zq-secret-hw"),  # refused when the run is analyzed: unknown hardware
    "model": ('model = "zq-secret-model"', "zq-secret-model"),  # unknown model preset
    "window": ('window = "zq:secret"', "zq:secret"),  # --window's own check
    "gpus": ("gpus = -77731", "-77731"),  # refused by the sidecar's range check `(got ...)`
    "peak_tflops": ("peak_tflops = -0.77731", "-0.77731"),
}


def test_an_error_from_a_sidecars_value_names_the_file_and_the_key_not_the_value(tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "out"
    for name in ("plain", *SIDECARS):
        (runs / name).mkdir(parents=True)
        shutil.copy(TITAN, runs / name / "train.log")
    for key, (sidecar, _) in SIDECARS.items():
        (runs / key / "logparse.toml").write_text(sidecar + "\n")
    result = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1", "--hw", "h100"])
    assert result.exit_code == 1
    index = pd.read_csv(out / "index.csv").set_index("run")
    assert index.loc["plain_train", "status"] == "ok"
    shown = [(out / name).read_text() for name in ("index.csv", "index.json", "index.html")] + [result.stderr]
    for key, (_, secret) in SIDECARS.items():
        error = index.loc[f"{key}_train", "error"]
        assert index.loc[f"{key}_train", "status"] == "error"
        # the key named (`hw: ...` where the file is read, `<hw>` in the place of its value in a later check)
        assert str(runs / key / "logparse.toml") in error and (f"<{key}>" in error or f" {key}: " in error), (
            error
        )
        assert not any(secret in text for text in shown), secret


def test_an_error_that_quotes_no_sidecar_value_is_left_as_it_is(tmp_path):
    from logparse.batch.engine import RunJob, analyze_run

    sidecar = tmp_path / "logparse.toml"
    sidecar.write_text('hw = "h100"\ngpus = 8\n')  # values a message may hold without quoting them
    (tmp_path / "train.log").write_text(cut_before_its_first_step())  # a log with no step: a failed run
    job = RunJob(
        "train", (str(tmp_path / "train.log"),), str(tmp_path / "out"), {}, str(sidecar), root=str(tmp_path)
    )
    row = analyze_run(job)
    assert row["status"] == "error" and "<hw>" not in row["error"] and "<gpus>" not in row["error"]
    assert not row["error"].startswith(str(sidecar))


def test_a_value_is_hidden_where_quoted_and_only_there_unless_the_message_is_about_it():
    from logparse.core.tomlfile import without_values

    table = {"hw": "h1000", "gpus": 8, "patterns": ["pats"]}
    assert (
        without_values("unknown hardware 'h1000'; known: h100", table) == "unknown hardware <hw>; known: h100"
    )
    assert without_values('format "H1000" and 8 GPUs', table) == "format <hw> and 8 GPUs"
    assert (
        without_values("must be at least 1 (got 8)", {"gpus": [8, 8.0]}, bare=True)
        == "must be at least 1 (got <gpus>)"
    )
    assert without_values("line 18 of 8.5", {"gpus": 8}, bare=True) == "line 18 of 8.5"  # whole numbers only
    # after its own name, as a check of the option against the log says it; other numbers stay
    assert without_values("--segment 7: the log has segment(s) 0, line 7", {"segment": 7}) == (
        "--segment <segment>: the log has segment(s) 0, line 7"
    )


def test_a_sidecar_option_the_log_refuses_is_said_without_its_value(tmp_path):
    """A window or a segment the log does not have fails the run, and the page names the key, not the steps the
    file asked for."""
    runs = tmp_path / "runs"
    for key, toml in (("window", 'window = "90017:90023"'), ("segment", "segment = 90029")):
        (runs / key).mkdir(parents=True)
        shutil.copy(TITAN, runs / key / "train.log")
        (runs / key / "logparse.toml").write_text(toml + "\n")
    result = run_apart(["batch", str(runs), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 1
    shown = (tmp_path / "out" / "index.html").read_text() + (tmp_path / "out" / "index.csv").read_text()
    for secret in ("90017", "90023", "90029"):
        assert secret not in shown and secret not in result.stderr, secret
    assert "<window>" in result.stderr and "<segment>" in result.stderr


def test_the_batchs_terminal_lines_show_a_name_as_written(tmp_path):
    """The lines batch prints (ok, error) escape a name's format characters as the page does: a U+202E in a file
    name reverses no line of the terminal either."""
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(TITAN, runs / f"ok{RLO}gol.log")
    (runs / f"cut{RLO}gol.log").write_text(cut_before_its_first_step())
    result = run_apart(["batch", str(runs), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 1
    assert RLO not in result.stdout + result.stderr
    assert "ok     ok\\u202egol: torchtitan" in result.stdout
    assert result.stderr.startswith("error: cut\\u202egol: ")
