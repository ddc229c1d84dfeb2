"""The command line, through click's CliRunner, and once through the installed console script in a
real process (the entry point, the exit code and a one-line error on stderr)."""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from logparse.cli import cli
from tests.conftest import ROOT, SAMPLES, run_apart

MEGATRON = str(SAMPLES / "megatron_llama2-7b_8xh100.log")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_analyze_writes_the_three_files_and_a_summary(tmp_path):
    res = run("analyze", MEGATRON, "--gpus", "8", "--hw", "h100", "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert {p.name for p in tmp_path.iterdir()} == {"report.png", "summary.json", "steps.csv"}
    assert "stable steps" in res.output and "MFU 45.0%" in res.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    for key in (
        "run",
        "source",
        "format",
        "lines",
        "gpus",
        "gpus_source",
        "hardware",
        "model",
        "formula",
        "flops_per_token",
        "recompute",
        "steps",
        "tokens_per_step",
        "warmup_steps",
        "stable",
        "dips",
        "restarts",
        "reported",
        "warnings",
    ):
        assert key in summary
    for key in (
        "start_step",
        "end_step",
        "steps",
        "mfu_mean",
        "mfu_median",
        "hfu_mean",
        "tokens_per_s",
        "tokens_per_s_per_gpu",
        "step_time_s",
        "tflops_per_gpu",
    ):
        assert key in summary["stable"]
    assert (tmp_path / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    steps = pd.read_csv(tmp_path / "steps.csv")
    assert list(steps.columns[:3]) == ["step", "loss", "lr"]
    assert {
        "mfu",
        "hfu",
        "tflops_per_gpu",
        "tokens_per_s",
        "tokens_per_s_per_gpu",
        "phase",
        "segment",
        "line",
    } <= set(steps.columns)
    assert len(steps) == 500


def test_default_output_folder_is_named_after_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("analyze", MEGATRON, "--hw", "h100").exit_code == 0
    assert (tmp_path / "logparse-out" / "megatron_llama2-7b_8xh100" / "summary.json").exists()


def test_json_prints_only_the_summary(tmp_path):
    res = CliRunner().invoke(cli, ["analyze", MEGATRON, "--hw", "h100", "--json", "--out", str(tmp_path)])
    assert res.exit_code == 0
    summary = json.loads(res.stdout)
    assert summary["format"] == "megatron" and summary["gpus"] == 8


@pytest.mark.parametrize("suffix", ["csv", "parquet", "jsonl"])
def test_parse_writes_the_step_frame(tmp_path, suffix):
    out = tmp_path / f"steps.{suffix}"
    res = run("parse", MEGATRON, "-o", str(out))
    assert res.exit_code == 0, res.output
    frame = {"csv": pd.read_csv, "parquet": pd.read_parquet, "jsonl": lambda p: pd.read_json(p, lines=True)}[
        suffix
    ](out)
    assert len(frame) == 500 and frame["step"].is_monotonic_increasing
    assert frame["step_time_s"].iloc[100] > 0


def test_parse_lists_unmatched_lines(tmp_path):
    out = tmp_path / "unmatched.txt"
    assert run("parse", MEGATRON, "-o", str(tmp_path / "s.csv"), "--unmatched", str(out)).exit_code == 0
    lines = out.read_text().splitlines()
    summary = json.loads(
        CliRunner().invoke(cli, ["analyze", MEGATRON, "--json", "--out", str(tmp_path)]).stdout
    )
    assert len(lines) == summary["lines"]["unmatched"] > 0
    number, text = lines[0].split("\t", 1)
    assert int(number) > 0 and text


def test_hw_list_json():
    data = json.loads(run("hw", "list", "--json").output)
    h100 = next(d for d in data if d["name"] == "h100-sxm")
    assert h100["peak_tflops"]["bf16"] == 989.0 and "h100" in h100["aliases"] and h100["source"]


def test_patterns_list_test_and_explain():
    assert "megatron" in run("patterns", "list").output
    res = run("patterns", "test")
    assert res.exit_code == 0 and "FAIL" not in res.output
    res = run("patterns", "explain", MEGATRON)
    assert "megatron.iteration" in res.output and "unmatched line shapes" in res.output


def test_patterns_test_catches_a_wrong_sample(tmp_path):
    (tmp_path / "toy.toml").write_text(
        "[format]\nname = 'toy'\ndetect = ['^toy']\n[[line]]\nname = 's'\nkind = 'step'\n"
        "regex = '^toy (?P<step>\\d+)'\n[[sample]]\nline = 'toy 3'\nexpect = { step = 4 }\n"
    )
    res = CliRunner().invoke(cli, ["patterns", "test", str(tmp_path)])
    assert res.exit_code == 1 and "step is 3, expected 4" in res.output


@pytest.mark.parametrize(
    "setup,args,message,code",
    [
        (None, ["analyze", "{tmp}/missing.log"], "no such file", 1),
        ("", ["analyze", "{tmp}/x.log"], "empty", 1),
        (b"\x00\x01\x02binary" * 50, ["analyze", "{tmp}/x.log"], "binary", 1),
        ("hello\nworld\n", ["analyze", "{tmp}/x.log"], "no pattern set recognises this log", 1),
        (None, ["analyze", "{tmp}"], "is a folder, but not a run folder logparse reads", 1),
        (None, ["analyze", MEGATRON, "--gpus", "1", "--hw", "h100"], "impossible", 1),
        # an option's value: a usage error, exit 2
        (None, ["analyze", MEGATRON, "--hw", "h300"], "unknown hardware 'h300'", 2),
        (None, ["analyze", MEGATRON, "--gpus", "0"], "--gpus must be at least 1", 2),
        (None, ["analyze", MEGATRON, "--format", "nope"], "unknown format 'nope'", 2),
        (None, ["parse", MEGATRON, "-o", "{tmp}/x.xlsx"], "unknown output type", 2),
    ],
)
def test_bad_input_is_one_line_error_exit_1_no_traceback(tmp_path, setup, args, message, code):
    if setup is not None:
        p = tmp_path / "x.log"
        p.write_bytes(setup) if isinstance(setup, bytes) else p.write_text(setup)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    res = run_apart(argv)
    assert res.exit_code == code, res.stderr
    assert "Traceback" not in res.stderr and not res.stdout
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0], res.stderr


def test_usage_errors_exit_2():
    """click's own usage errors are one line `error: ...`, as logparse's are, with where to find the options."""
    res = run_apart(["analyze", MEGATRON, "--gpus", "eight"])
    assert res.exit_code == 2 and "Traceback" not in res.stderr
    (line,) = res.stderr.splitlines()
    assert line.startswith("error: ") and "'eight' is not a valid integer" in line
    assert line.endswith("(see logparse analyze --help)")


def test_the_installed_console_script_runs_in_a_real_process(tmp_path):
    """The one test that starts an interpreter: the `logparse` script pip installed (the entry point
    in pyproject), its exit code and its single `error:` line, with no traceback."""
    script = Path(sys.executable).parent / ("logparse.exe" if sys.platform == "win32" else "logparse")
    assert script.exists(), f"{script}: install the package first (pip install -e '.[test]')"
    proc = subprocess.run(
        [str(script), "analyze", str(tmp_path / "missing.log")], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1 and not proc.stdout, proc.stderr
    assert proc.stderr.splitlines() == [f"error: {tmp_path / 'missing.log'}: no such file"], proc.stderr


def test_python_dash_m_logparse_is_the_same_command(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["logparse", "--version"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module("logparse", run_name="__main__")
    assert exit_.value.code in (0, None) and capsys.readouterr().out.startswith("logparse, version ")


def test_readme_commands_run_and_write_only_what_git_ignores(tmp_path, monkeypatch):
    """Every `logparse ...` line in the README's code blocks runs and exits 0 (they cannot rot). Run as a user
    runs them, in a checkout (here a folder with its sample_logs/), they write nothing but what .gitignore
    ignores: logparse-out/ (a `parse -o steps.parquet` left an untracked file)."""
    import shlex

    (tmp_path / "sample_logs").symlink_to(ROOT / "sample_logs")
    monkeypatch.chdir(tmp_path)
    readme = (ROOT / "README.md").read_text()
    commands = [
        line.strip()
        for line in readme.splitlines()
        if line.strip().startswith("logparse ") and " LOG" not in line and "[--" not in line
    ]
    assert any(c.startswith("logparse analyze sample_logs/") for c in commands)
    for command in commands:
        argv = shlex.split(command.split("#")[0])[1:]
        res = CliRunner().invoke(cli, argv, catch_exceptions=False)
        assert res.exit_code == 0, (command, res.output)
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "logparse-out/" in ignored
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logparse-out", "sample_logs"]
    assert (tmp_path / "logparse-out" / "steps.parquet").is_file()


def test_readme_shows_what_the_main_command_prints(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text()
    shown = readme.split("and prints:\n\n```\n", 1)[1].split("```", 1)[0].strip()
    res = run(
        "analyze",
        "sample_logs/megatron_llama2-7b_8xh100.log",
        "--gpus",
        "8",
        "--hw",
        "h100",
        "--out",
        str(tmp_path),
    )
    printed = "\n".join(line for line in res.output.splitlines() if not line.strip().startswith("wrote "))
    assert printed.strip() == shown


def test_long_runs_are_drawn_as_envelopes_that_keep_one_step_dips():
    import numpy as np

    from logparse.report.plots import envelope

    x = np.arange(100_000, dtype=float)
    y = np.full(100_000, 45.0)
    y[61_234] = 13.0  # one slow step
    xs, lo, mean, hi = envelope(x, y)
    assert len(xs) == 1500 and lo.min() == 13.0 and hi.max() == 45.0
    assert np.count_nonzero(lo < 45) == 1


def test_unwritable_outputs_and_broken_pattern_files_are_one_line_errors(tmp_path):
    (tmp_path / "a_file").write_text("")
    res = CliRunner().invoke(cli, ["parse", MEGATRON, "-o", str(tmp_path / "a_file" / "x.csv")])
    assert res.exit_code == 2 and res.output.startswith("error: ") and "internal" not in res.output
    # a folder that is missing is made, as analyze's --out is
    res = CliRunner().invoke(cli, ["parse", MEGATRON, "-o", str(tmp_path / "missing" / "x.csv")])
    assert res.exit_code == 0 and (tmp_path / "missing" / "x.csv").is_file()
    (tmp_path / "bad.toml").write_text("[formt]\n")
    (tmp_path / "toy.toml").write_text(
        "[format]\nname = 'toy'\ndetect = ['^toy']\n[[line]]\nname = 's'\nkind = 'step'\n"
        "regex = '^toy (?P<step>\\d+)'\n[[sample]]\nline = 'toy 3'\nexpect = { step = 3 }\n"
    )
    res = CliRunner().invoke(cli, ["patterns", "test", str(tmp_path)])
    assert res.exit_code == 1
    assert "FAIL" in res.output and "bad.toml: missing the [format] table" in res.output
    assert "ok   " in res.output and "toy.toml" in res.output  # the good file is still checked


def test_same_named_logs_get_separate_output_folders(tmp_path):
    import shutil

    for run_dir in ("run_a", "run_b"):
        (tmp_path / run_dir).mkdir()
        shutil.copy(MEGATRON, tmp_path / run_dir / "train.log")
    res = run(
        "analyze",
        str(tmp_path / "run_a" / "train.log"),
        str(tmp_path / "run_b" / "train.log"),
        "--hw",
        "h100",
        "--out",
        str(tmp_path / "out"),
    )
    assert res.exit_code == 0
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"run_a_train", "run_b_train"}


# ---------------------------------------------------------------------------------------------------------
# what a new user trips over


def test_analyze_goes_on_after_a_failing_log_and_names_it(tmp_path):
    """`analyze a.log missing.log b.log`: a and b are analyzed, missing.log is named on stderr, exit 1."""
    other = str(SAMPLES / "nanogpt_gpt2_8xa100.log")
    missing = str(tmp_path / "missing.log")
    res = CliRunner().invoke(cli, ["analyze", MEGATRON, missing, other, "--out", str(tmp_path / "out")])
    assert res.exit_code == 1
    assert len(list((tmp_path / "out").iterdir())) == 2  # both good logs written
    for folder in (tmp_path / "out").iterdir():
        assert (folder / "summary.json").exists()
    err = res.stderr.strip().splitlines()
    assert err[0] == f"error: {missing}: no such file"
    assert err[-1] == "error: 1 of 3 logs failed"
    assert res.stdout.count("stable steps") == 2


def test_analyze_goes_on_after_a_log_whose_mfu_is_impossible(tmp_path):
    """Said to run on 1 GPU, the 8-GPU Megatron log's MFU would be about 360%: refused, named, and the
    other logs still analyzed. Megatron prints moe_router_topk (2) for dense models too: no MoE hint."""
    hf = [str(SAMPLES / f"hf_trainer_{name}_cpu.log") for name in ("ga4", "ddp2")]
    res = run_apart(
        ["analyze", hf[0], MEGATRON, hf[1], "--gpus", "1", "--hw", "h100", "--out", str(tmp_path)]
    )
    assert res.exit_code == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hf_trainer_ddp2_cpu", "hf_trainer_ga4_cpu"]
    first, last = res.stderr.strip().splitlines()
    assert first.startswith(f"error: {MEGATRON}: stable MFU would be 3") and "impossible" in first
    assert "check --gpus 1 (cli)" in first and "mixture-of-experts" not in first
    assert last == "error: 1 of 3 logs failed"


def test_the_text_summary_counts_in_words(tmp_path):
    """`1 dip`, not `1 dips`; a one-step dip is `dip at step N`, not `dip steps N-N`."""
    from logparse.report import outputs as report

    assert (report.plural(1, "dip"), report.plural(0, "dip"), report.plural(2, "GPU")) == (
        "1 dip",
        "0 dips",
        "2 GPUs",
    )
    assert report._dip_span(50, 50) == "dip at step 50"
    res = run(
        "analyze",
        MEGATRON,
        "--gpus",
        "1",
        "--hw",
        "h100",
        "--peak-tflops",
        "8000",
        "--out",
        str(tmp_path),
    )
    assert res.exit_code == 0, res.output
    assert "assumptions: 1 GPU (cli)" in res.output and "1 GPUs" not in res.output
    assert "; 2 dips; 0 restarts" in res.output


def test_models_list_json_as_the_readme_documents():
    res = run("models", "list", "--json")
    assert res.exit_code == 0, res.output
    presets = {p["name"]: p for p in json.loads(res.output)}
    # Llama-2-7B: 32 layers of 4096, N = 6.74e9 - 32000 x 4096 (the input embedding) = 6.61e9
    assert presets["llama2-7b"]["layers"] == 32 and presets["llama2-7b"]["hidden"] == 4096
    assert abs(presets["llama2-7b"]["params"] - 6.607e9) / 6.607e9 < 0.002


def test_hw_list_marks_unverified_entries_and_says_where_sources_are():
    res = run("hw", "list")
    assert res.exit_code == 0
    row = next(line for line in res.output.splitlines() if line.startswith("a10g"))
    assert row.startswith("a10g*")
    assert "not checked against the vendor's datasheet" in res.output and "hw list --json" in res.output
    assert (
        next(line for line in res.output.splitlines() if line.startswith("h100-sxm ")).split()[0]
        == "h100-sxm"
    )


def test_an_unknown_hw_name_lists_the_names_users_type(tmp_path):
    res = CliRunner().invoke(cli, ["analyze", MEGATRON, "--hw", "h200x"])
    assert res.exit_code == 2
    assert "h100-sxm (h100)" in res.stderr and "rtx-a6000 (a6000)" in res.stderr
    ok = CliRunner().invoke(
        cli, ["analyze", MEGATRON, "--hw", "NVIDIA H100 80GB HBM3", "--json", "--out", str(tmp_path)]
    )
    assert ok.exit_code == 0 and json.loads(ok.stdout)["hardware"]["name"] == "h100-sxm"


def test_a_log_on_standard_input(tmp_path):
    """`-` reads the log from standard input, for analyze and parse alike."""
    text = Path(MEGATRON).read_bytes()
    res = CliRunner().invoke(cli, ["analyze", "-", "--hw", "h100", "--out", str(tmp_path / "a")], input=text)
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("stdin: megatron log, 565 lines") and "MFU 45.0%" in res.stdout
    res = CliRunner().invoke(cli, ["parse", "-", "-o", str(tmp_path / "s.csv")], input=text)
    assert res.exit_code == 0, res.output
    assert len(pd.read_csv(tmp_path / "s.csv")) == 500
    res = CliRunner().invoke(cli, ["analyze", "-", "-"], input=text)
    assert res.exit_code == 2 and "standard input (-) can be given once" in res.output


def test_flops_validates_and_falls_back_as_analyze_does():
    """One validation and one fallback for `flops` and `analyze`: a negative sequence length is refused; N
    alone gives 6N = 6 x 7e9 = 4.2e10 FLOPs/token, with analyze's warning, instead of an error."""
    res = CliRunner().invoke(cli, ["flops", "--model", "llama2-7b", "--seq-len", "-1"])
    assert res.exit_code == 2 and res.stderr.strip() == "error: --seq-len must be at least 1 (got -1)"
    res = CliRunner().invoke(cli, ["flops", "--params", "7e9", "--seq-len", "4096", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["formula"] == "6n" and out["flops_per_token"] == 6 * 7e9
    assert out["warnings"] and "6N" in out["warnings"][0]
    assert (
        json.loads(run("flops", "--model", "llama2-7b", "--seq-len", "4096", "--json").stdout)["formula"]
        == "palm"
    )


def test_a_closed_pipe_is_not_an_error(tmp_path):
    """`logparse flops ... | true` (the reader gone before logparse writes): no `error: [Errno 32] Broken
    pipe` on stderr."""
    proc = subprocess.run(
        f"{sys.executable} -m logparse flops --model llama2-7b --seq-len 4096 | true",
        shell=True,
        capture_output=True,
        text=True,
    )
    assert "Broken pipe" not in proc.stderr and not proc.stderr


def test_parse_with_hardware_options_writes_the_mfu_it_implies(tmp_path):
    """`parse LOG --hw h100 --gpus 8` used to list the options and ignore them: now the rows get the
    utilization columns analyze computes. The sample was generated at a stable MFU of 45% (its truth file)."""
    truth = json.loads((SAMPLES / "megatron_llama2-7b_8xh100.truth.json").read_text())
    plain = run("parse", MEGATRON, "-o", str(tmp_path / "plain.csv"))
    assert plain.exit_code == 0 and "mfu" not in pd.read_csv(tmp_path / "plain.csv")
    res = run("parse", MEGATRON, "--hw", "h100", "--gpus", "8", "-o", str(tmp_path / "mfu.csv"))
    assert res.exit_code == 0, res.output
    rows = pd.read_csv(tmp_path / "mfu.csv")
    stable = rows[(rows["step"] >= 100) & (rows["step"] <= 300)]
    assert abs(stable["mfu"].mean() - truth["stable_mfu"]) < 0.01


def test_quiet_prints_nothing_but_writes_the_files(tmp_path):
    res = CliRunner().invoke(cli, ["analyze", MEGATRON, "-q", "--out", str(tmp_path)])
    assert res.exit_code == 0 and res.stdout == "" and res.stderr == ""
    assert (tmp_path / "summary.json").exists()


def test_the_text_summary_says_what_is_unknown_and_what_to_pass(tmp_path):
    """No `?`, no `n/a`: an unknown figure is named with the option that would make it known; a line that
    stands for several steps is counted both ways; a CPU run's TFLOP/s keeps its digits."""
    hf = str(SAMPLES / "hf_trainer_ga4_cpu.log")
    bare = run("analyze", hf, "--out", str(tmp_path / "a")).output
    assert "?" not in bare.split("warning:")[0] and "n/a" not in bare
    assert "hardware unknown (pass --hw NAME or --peak-tflops X)" in bare
    assert "FLOPs/token unknown (pass --seq-len)" in bare and "tokens/s unknown (pass --seq-len)" in bare
    # HF logs every 5th of 60 optimizer steps: 12 lines stand for 60 steps (trainer_state.json's log_history)
    assert "stable steps 5..60 (12 logged lines, 60 steps: each stands for the 5 steps up to it)" in bare
    known = run(
        "analyze",
        hf,
        "--seq-len",
        "64",
        "--params",
        "120576",
        "--peak-tflops",
        "1.0",
        "--out",
        str(tmp_path / "b"),
    ).output
    # 6 x 120576 x 16384 tokens/s = 0.0119 TFLOP/s, 1.2% of 1 TFLOPS
    assert "MFU 1.2%" in known and "0.0119 TFLOP/s/GPU" in known and "0.0 TFLOP" not in known


def test_no_seq_len_warning_that_contradicts_the_logs_own_tokens_per_s(tmp_path):
    """Composer prints throughput/tokens_per_sec itself (the CPU capture's in-memory record holds it): the
    summary gives tokens/s and does not tell the user to pass --seq-len *to get tokens/s*."""
    import logparse

    a = logparse.analyze(str(SAMPLES / "composer_mb_cpu.log"))
    assert a.summary["stable"]["tokens_per_s"] > 0
    seq = [w for w in a.summary["warnings"] if "sequence length is unknown" in w]
    assert seq and "to get tokens/s" not in seq[0] and "the log's own count" in seq[0]


def test_a_checkpoint_save_is_listed_once_beside_its_dip(tmp_path):
    """Megatron prints two lines per save (sample log lines 359 and 360: "saving checkpoint at iteration
    300" and "successfully saved checkpoint from iteration 300"): one save, named once, with both lines."""
    res = run("analyze", MEGATRON, "--gpus", "8", "--hw", "h100", "--out", str(tmp_path))
    dip = next(line for line in res.stdout.splitlines() if "301-303" in line and "lost" in line)
    assert dip.count("checkpoint") == 1, dip
    assert dip.endswith("near checkpoint save at step 300 (lines 359-360)"), dip


def test_the_stable_range_and_its_step_count_add_up(tmp_path):
    """`stable steps 20..500 (474 steps)` did not add up: the count leaves out the generator's two dips
    (truth file: steps 301-303 and 420-423), and now says so."""
    truth = json.loads((SAMPLES / "megatron_llama2-7b_8xh100.truth.json").read_text())
    res = run("analyze", MEGATRON, "--gpus", "8", "--hw", "h100", "--out", str(tmp_path))
    m = re.search(r"stable steps (\d+)\.\.(\d+) \((\d+) steps: (\d+) less (\d+) in dips\)", res.stdout)
    assert m, res.stdout
    lo, hi, counted, span, in_dips = map(int, m.groups())
    assert span == hi - lo + 1 and counted == span - in_dips
    assert in_dips == sum(b - a + 1 for a, b in truth["dips"] if lo <= a and b <= hi)


def _leaf_commands(group, path=()):
    import click

    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            yield from _leaf_commands(cmd, (*path, name))
        else:
            yield (*path, name), cmd


def test_every_command_help_shows_an_example_that_click_accepts():
    """Each command's --help ends with an example; each example's words are options the command has
    (parsed by the command itself, so an example cannot outlive a renamed option)."""
    import shlex

    for path, cmd in _leaf_commands(cli):
        res = run_apart([*path, "--help"])
        assert res.exit_code == 0
        lines = (line.strip().removeprefix("Example: ") for line in res.stdout.splitlines())
        examples = [line for line in lines if line.startswith("logparse ")]
        assert examples, f"logparse {' '.join(path)} --help has no example"
        for example in examples:
            words = shlex.split(example.replace("> steps.csv", ""))
            assert words[1 : 1 + len(path)] == list(path), example
            ctx = cmd.make_context(" ".join(words[: 1 + len(path)]), words[1 + len(path) :])
            assert ctx.params is not None


def test_nothing_but_errors_reaches_a_piped_stderr(tmp_path):
    """No progress bar or stray `analyzing` line when stderr is not a terminal (a pipe, a CI log; the
    runner's stderr is not a terminal either)."""
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.log").write_text(Path(MEGATRON).read_text())
    for argv in (
        ["analyze", MEGATRON, "--gpus", "8", "--hw", "h100", "--out", str(tmp_path / "one")],
        ["batch", str(runs), "--hw", "h100", "--jobs", "1", "--out", str(tmp_path / "batch")],
    ):
        res = run_apart(argv)
        assert res.exit_code == 0, res.stderr
        assert res.stderr == "", res.stderr
        assert res.stdout


def test_a_one_step_dip_is_named_as_one_step_in_the_diagnosis_too():
    """The diagnosis said `the dip at steps 50-50`; it says `the dip at step 50` like the dip lines."""
    from dataclasses import replace

    from logparse import api
    from logparse.phases.phases import Dip
    from logparse.report import outputs as report

    a = api.analyze(MEGATRON, gpus=8, hw="h100")
    save = {
        "event": "checkpoint_save",
        "line": 359,
        "text": "saving checkpoint at iteration 300",
        "step": 300,
    }
    one = Dip(301, 301, rows=1, min_ratio=0.5, min_mfu=0.2, lost_s=6.0, near_events=[save])
    found = report.diagnose(a.run, a.util, replace(a.phases, dips=[one]), a.summary["stable"])
    assert "the dip at step 301 coincides with checkpoint save" in found
    assert not any("301-301" in f for f in found)


def test_the_step_range_line_counts_lines_and_steps_when_a_line_stands_for_several(tmp_path):
    """HF logged every 4th of 40 steps (trainer_state.json: logging_steps 4, max_steps 40, loss records at
    steps 4..40): `steps 4..40 (10 logged lines, 40 steps)`, not `(10 logged)` beside a 40-step range."""
    state = json.loads((SAMPLES / "hf_trainer_ddp2_cpu.trainer_state.json").read_text())
    logged = [h["step"] for h in state["log_history"] if "loss" in h]
    res = run("analyze", str(SAMPLES / "hf_trainer_ddp2_cpu.log"), "--out", str(tmp_path))
    header = res.stdout.splitlines()[1]
    expected = f"steps {logged[0]}..{logged[-1]} ({len(logged)} logged lines, {state['max_steps']} steps)"
    assert header.startswith(f"  {expected},"), header


def test_a_logs_own_per_gpu_tokens_per_s_is_shown_without_asking_for_the_sequence_length(tmp_path):
    """torchtitan prints tps, tokens per second per device (tests/data/public/torchtitan_pr3393_rank0.log,
    from a public PR): with no --gpus and no --seq-len the summary shows that figure and asks only for what
    it lacks (--gpus for the cluster's), not --seq-len "to get tokens/s"."""
    log = ROOT / "tests" / "data" / "public" / "torchtitan_pr3393_rank0.log"
    res = run("analyze", str(log), "--out", str(tmp_path))
    stable = next(line for line in res.stdout.splitlines() if "stable steps" in line)
    m = re.search(r"([\d,]+) tokens/s per GPU \(cluster unknown: pass --gpus\)", stable)
    assert m, stable
    printed = [7282, 7334, 7313, 7282, 7322, 7309, 7272, 7304]  # the excerpt's tps, steps 14..21
    assert min(printed) <= int(m.group(1).replace(",", "")) <= max(printed)
    assert "tokens/s unknown" not in res.stdout and "pass --seq-len to get tokens/s" not in res.stdout
    # the trainer's own tflops over the stable steps 15..21: (0.53 + 6 x 0.52) / 7 = 0.5214
    assert "the log's own figure: 0.521 TFLOP/s/GPU" in res.stdout


def test_analyze_on_a_folder_of_logs_points_to_batch(tmp_path):
    """A folder of plain logs (no run folder of a kind logparse reads), flat or one folder per run, is many
    runs: analyze says so in one line and names `logparse batch` and a log it could read instead."""
    flat = tmp_path / "logs"
    flat.mkdir()
    for name in ("a.log", "b.log"):
        (flat / name).write_text((SAMPLES / "megatron_llama2-7b_8xh100.log").read_text())
    nested = tmp_path / "runs"
    for name in ("a", "b"):
        (nested / name).mkdir(parents=True)
        (nested / name / "train.log").write_text("step 1 loss 2.0\n")
    for folder, first in ((flat, flat / "a.log"), (nested, nested / "a" / "train.log")):
        res = run_apart(["analyze", str(folder), "--out", str(tmp_path / "out")])
        assert res.exit_code == 1
        (line,) = res.stderr.splitlines()
        assert f"logparse batch {folder}" in line and f"logparse analyze {first}" in line, line
    empty = tmp_path / "empty"
    empty.mkdir()
    res = run_apart(["analyze", str(empty), "--out", str(tmp_path / "out")])
    assert res.exit_code == 1 and "logparse batch" not in res.stderr  # nothing there to batch


def test_patterns_list_counts_in_words_that_agree(tmp_path):
    from tests.conftest import TOY_SET

    (tmp_path / "toy.toml").write_text(TOY_SET)  # one line, one sample
    out = run("patterns", "list", "--patterns", str(tmp_path)).output
    (toy,) = [line for line in out.splitlines() if line.startswith("toy ")]
    assert re.search(r"\b1 line\s+1 sample\s", toy) and "lines" not in toy and "samples" not in toy
    assert re.search(r"\b\d\d+ lines\s+\d+ samples\s", out)  # the shipped sets' columns, plural


# llama2-7b (models.toml): 32 layers, hidden 4096, MLP 11008, vocab 32000, two RMSNorms a layer and a final one
L, D, F, V = 32, 4096, 11008, 32000
NORMS = (2 * L + 1) * D
# attention's 4 d^2 a layer, an MLP of two d x ffn matrices, the logits' d x V
PLAIN_N = L * (4 * D * D + 2 * D * F) + D * V + NORMS
GATED_N = L * (4 * D * D + 3 * D * F) + D * V + NORMS  # SwiGLU: three


def test_flops_takes_mlp_as_analyze_does():
    def n(*args):
        res = run_apart(["flops", "--model", "llama2-7b", "--seq-len", "4096", "--json", *args])
        assert res.exit_code == 0, res.stderr
        return json.loads(res.stdout)["params"], res.stderr

    assert n() == (GATED_N, "")  # the preset's own MLP
    assert n("--mlp", "gated") == (GATED_N, "")
    assert n("--mlp", "plain") == (PLAIN_N, "")
    # the older spelling still works, and says which to use
    params, said = n("--no-swiglu")
    assert params == PLAIN_N
    assert said.strip() == "warning: --no-swiglu is deprecated; use --mlp plain, as analyze takes it"
    both = run_apart(["flops", "--model", "llama2-7b", "--seq-len", "4096", "--mlp", "gated", "--no-swiglu"])
    assert both.exit_code == 2 and both.stderr == "error: give --mlp or --no-swiglu, not both\n"
    helped = " ".join(run("flops", "--help").output.split())
    assert "--mlp [gated|plain]" in helped and "swiglu" not in helped


def test_the_apis_repr_counts_as_the_cli_does(tmp_path):
    """HF logged every 4th of 40 steps (trainer_state.json): the CLI says `10 logged lines, 40 steps`, and so
    do repr(analysis) and repr(analysis.run)."""
    import logparse

    state = json.loads((SAMPLES / "hf_trainer_ddp2_cpu.trainer_state.json").read_text())
    lines = len([h for h in state["log_history"] if "loss" in h])
    counted = f"{lines} logged lines, {state['max_steps']} steps"
    res = run("analyze", str(SAMPLES / "hf_trainer_ddp2_cpu.log"), "--out", str(tmp_path))
    assert counted in res.output
    a = logparse.analyze(SAMPLES / "hf_trainer_ddp2_cpu.log")
    assert f", {counted}," in repr(a) and repr(a.run).endswith(f", {counted}>")
    assert len(repr(a.run)) < 200  # the run, not its frames
