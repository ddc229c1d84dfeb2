"""The Python API as a notebook user meets it: every CLI option is a keyword of the same name, wrong
values are errors naming the keyword, an Analysis prints short, saves and plots, its step frame reads
well, and steps.csv holds numbers as the log printed them."""

from __future__ import annotations

import csv
import inspect
import json
import re

import pandas as pd
import pytest

import logparse
from logparse.cli import analyze as analyze_command
from logparse.cli import parse as parse_command

from .conftest import SAMPLES, run_apart

MEGATRON = SAMPLES / "megatron_llama2-7b_8xh100.log"

# options of the commands that are about the command's own output, not the analysis
_OUTPUT_ONLY = {"logs", "log", "out_dir", "as_json", "quiet", "output", "unmatched", "help"}


@pytest.fixture(scope="module")
def megatron() -> logparse.Analysis:
    return logparse.analyze(MEGATRON, gpus=8, hw="h100")


@pytest.mark.parametrize("command, function", [(analyze_command, "analyze"), (parse_command, "parse")])
def test_every_cli_option_is_a_keyword_of_the_same_name(command, function):
    flags = {p.name for p in command.params} - _OUTPUT_ONLY
    for p in command.params:  # the keyword is the flag's own name, underscored
        if p.name in flags:
            assert p.opts[0] == "--" + p.name.replace("_", "-"), p.opts
    fn = getattr(logparse, function)
    keywords = {name for name, p in inspect.signature(fn).parameters.items() if p.kind is p.KEYWORD_ONLY}
    assert flags <= keywords, flags - keywords
    for name in flags:  # and documented, one line each
        assert re.search(rf"^\s+{name} \(", fn.__doc__, re.M), name


def test_patterns_keyword_reads_a_pattern_folder(tmp_path):
    """The README's `patterns=[...]` (the CLI's --patterns), not an internal name."""
    (tmp_path / "mine.toml").write_text(
        """
[format]
name = "mine"
detect = ['^STEP ']

[[line]]
name = "step"
kind = "step"
regex = '^STEP (?P<step>\\d+) loss=(?P<loss>[\\d.]+) time=(?P<step_time_s>[\\d.]+)s$'

[[sample]]
line = "STEP 3 loss=2.5 time=1.25s"
pattern = "step"
expect = { step = 3, loss = 2.5, step_time_s = 1.25 }
"""
    )
    log = tmp_path / "run.log"
    log.write_text("".join(f"STEP {i} loss={3 - i / 100:.2f} time=1.25s\n" for i in range(1, 31)))
    steps = logparse.parse(log, patterns=[tmp_path], format="mine")
    assert steps["step"].tolist() == list(range(1, 31))
    assert logparse.parse(log, patterns=str(tmp_path))["step_time_s"].eq(1.25).all()  # one folder as a str
    with pytest.raises(TypeError, match="unknown option 'pattern_dirs'"):
        logparse.parse(log, pattern_dirs=[str(tmp_path)])


@pytest.mark.parametrize(
    "keyword, value, message",
    [
        ("gpus", "8", "gpus must be an integer, not str '8'"),
        ("gpus", True, "gpus must be an integer, not bool"),
        ("gpus", 8.0, "gpus must be an integer, not float"),
        ("peak_tflops", "989", "peak_tflops must be a number, not str"),
        ("dtype", "bf17", "dtype must be one of bf16, fp16, fp8, tf32, fp32, not 'bf17'"),
        ("hw", 100, "hw must be a string, not int"),
        ("patterns", 3, "patterns must be a folder or a list of folders"),
    ],
)
def test_wrong_kinds_are_type_errors_naming_the_keyword(keyword, value, message):
    with pytest.raises(TypeError, match=re.escape(message)) as caught:
        logparse.analyze(MEGATRON, **{keyword: value})
    assert "--" not in str(caught.value)
    assert isinstance(caught.value, logparse.LogparseError)  # the CLI's one-line error too


@pytest.mark.parametrize(
    "kwargs, python, flag, code",
    [
        ({"gpus": 0}, "gpus must be at least 1 (got 0)", "--gpus must be at least 1 (got 0)", 2),
        ({"seq_len": -1}, "seq_len must be at least 1", "--seq-len must be at least 1", 2),
        ({"window": "30:20"}, "window='30:20': the last step", "--window '30:20': the last step", 2),
        (
            {"last": 5, "skip": 2},
            "give one of window, last and skip",
            "give one of --window, --last and --skip",
            2,
        ),
        # a value that only this log refuses: not a usage error
        ({"segment": 7}, "segment=7: the log has segment(s) 0", "--segment 7: the log has segment(s) 0", 1),
    ],
)
def test_errors_name_keywords_in_python_and_flags_on_the_command_line(kwargs, python, flag, code):
    with pytest.raises(logparse.LogparseError) as caught:
        logparse.analyze(MEGATRON, **kwargs)
    assert python in str(caught.value), caught.value
    assert "--" not in str(caught.value)
    argv = ["analyze", str(MEGATRON), "--out", "/nonexistent-never-written"]
    for k, v in kwargs.items():
        argv += ["--" + k.replace("_", "-"), str(v)]
    res = run_apart(argv)
    assert res.exit_code == code
    assert flag in res.stderr and res.stderr.count("\n") == 1, res.stderr


def test_analysis_repr_is_one_short_line(megatron):
    text = repr(megatron)
    assert "\n" not in text and len(text) < 160, text
    assert text.startswith("<Analysis megatron_llama2-7b_8xh100:")
    # the stable MFU as summary.json has it, to the printed digit
    assert f"stable MFU {megatron.summary['stable']['mfu_mean']:.1%}" in text
    assert "8 x h100-sxm" in text


def test_save_writes_what_analyze_writes(megatron, tmp_path):
    paths = megatron.save(tmp_path / "out")
    assert {p.name for p in paths.values()} == {"summary.json", "steps.csv", "report.png"}
    assert json.loads(paths["summary"].read_text()) == json.loads(json.dumps(megatron.summary))
    cli_out = tmp_path / "cli"
    assert (
        run_apart(
            ["analyze", str(MEGATRON), "--gpus", "8", "--hw", "h100", "--out", str(cli_out), "-q"]
        ).exit_code
        == 0
    )
    assert paths["steps"].read_text() == (cli_out / "steps.csv").read_text()


def test_step_frame_reads_as_a_person_expects(megatron):
    steps = megatron.steps
    assert steps.columns[0] == "step"
    assert pd.api.types.is_datetime64_any_dtype(steps["timestamp"])
    # line 55 of the log: "[2024-09-03 15:54:07] iteration        1/     500 | ..."
    first = steps.iloc[0]
    assert first["timestamp"] == pd.Timestamp("2024-09-03 15:54:07", tz="UTC")
    assert first["step"] == 1 and first["line"] == 55
    for col in ("step", "global_batch_size", "consumed_samples", "segment", "line"):
        assert pd.api.types.is_integer_dtype(steps[col]), col
    assert steps["global_batch_size"].iloc[0] == 128  # "global batch size:   128"
    parsed = logparse.parse(MEGATRON)
    assert parsed.columns[0] == "step" and pd.api.types.is_datetime64_any_dtype(parsed["timestamp"])


def test_steps_csv_holds_numbers_as_the_log_printed_them(megatron, tmp_path):
    path = megatron.save(tmp_path)["steps"]
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    first = rows[0]
    # the log's own text for step 1: "elapsed time per iteration (ms): 84396.9", "global batch size:   128",
    # and step 3's 18000.7 ms (line 57), which ms -> s scaling makes 18.000700000000002 in binary
    assert first["step_time_s"] == "84.3969"
    assert first["global_batch_size"] == "128"
    assert first["consumed_samples"] == "128"
    assert first["timestamp"] == "2024-09-03T15:54:07.000000+00:00"  # UTC, with its offset
    by_step = {r["step"]: r for r in rows}
    assert by_step["3"]["step_time_s"] == "18.0007"
    for row in rows:  # no value anywhere carries binary representation noise
        for col, text in row.items():
            assert not re.search(r"\d\.\d*(0000000|9999999)\d", text), (col, text)


def test_integer_columns_with_gaps_stay_integers():
    """A count missing on some rows is a nullable integer, not a float with .0."""
    from logparse.report.analysis import public_steps

    raw = pd.DataFrame(
        {"line": [3.0, 4.0, 5.0], "step": [1.0, 2.0, 3.0], "global_batch_size": [480.0, None, 480.0]}
    )
    out = public_steps(raw)
    assert list(out.columns[:2]) == ["step", "global_batch_size"]
    assert str(out["global_batch_size"].dtype) == "Int64"
    assert out["global_batch_size"].tolist()[0] == 480 and pd.isna(out["global_batch_size"].iloc[1])
    # a column that is not whole stays a float: nothing is rounded to look like a count
    assert public_steps(raw.assign(step=[1.0, 1.5, 2.0]))["step"].dtype == float


def test_plot_returns_the_report_figure(megatron, tmp_path):
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    fig = megatron.plot(tmp_path / "r.png")
    try:
        assert isinstance(fig, Figure) and (tmp_path / "r.png").stat().st_size > 10_000
        labels = [ax.get_ylabel() for ax in fig.axes]
        assert "MFU (%)" in labels and "step time (s)" in labels
    finally:
        plt.close(fig)


def test_warnings_and_provenance_name_options_as_the_caller_gave_them(tmp_path):
    """The same run's warnings say `pass --seq-len` to a shell user and `pass seq_len` to Python code;
    the hardware's provenance is `--hw h100` or `hw=h100`."""
    hf = SAMPLES / "hf_trainer_ga4_cpu.log"
    in_python = logparse.analyze(hf, hw="h100").summary
    res = run_apart(["analyze", str(hf), "--hw", "h100", "--json", "--out", str(tmp_path)])
    on_cli = json.loads(res.stdout)
    assert any("pass seq_len" in w for w in in_python["warnings"])
    assert any("pass --seq-len" in w for w in on_cli["warnings"])
    assert not any("--" in w for w in in_python["warnings"]), in_python["warnings"]
    assert (in_python["hardware"]["name_detail"], on_cli["hardware"]["name_detail"]) == (
        "hw=h100",
        "--hw h100",
    )
