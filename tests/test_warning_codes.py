"""A run's warnings are records: each is a core.warnings.RunWarning, a str (summary.json's
"warnings" stays a list of strings) with a `code` from the documented set and the line/step it concerns.

The expected lines and steps are read by hand off the logs (cited at each case), not from logparse's output."""

from __future__ import annotations

import ast
import copy
import json
import pickle
import re
from pathlib import Path

import pytest

from logparse import api
from logparse.core import warnings as warnings_mod
from logparse.core.warnings import CODES, RunWarning
from tests.conftest import ROOT

PUBLIC = ROOT / "tests" / "data" / "public"
PEERS = ROOT / "tests" / "data" / "peers"


def _warnings(path: Path, **options: object) -> list[RunWarning]:
    return list(api.analyze(str(path), **options).run.warnings)


def test_nan_loss_names_its_line() -> None:
    # llmc_anthonix_issue2_nan.log line 1: "step   10/74 | loss     nan (+nanz)| norm    nan (+nanz)| ..."
    # (NaN from the first line on, both the loss and the norm); no --gpus: the GPUs are unknown
    ws = _warnings(PUBLIC / "llmc_anthonix_issue2_nan.log")
    nonfinite = [w for w in ws if w.code == "nonfinite"]
    assert [(w.line, w.step) for w in nonfinite] == [(1, None), (1, None)]
    assert "loss" in nonfinite[0] and "grad_norm" in nonfinite[1]
    assert [w.code for w in ws].count("gpus_unknown") == 1
    assert "gpus_unknown" not in {w.code for w in _warnings(PUBLIC / "llmc_anthonix_issue2_nan.log", gpus=8)}


@pytest.mark.parametrize(
    ("path", "code", "line", "step"),
    [
        # line 21: " iteration 11/ 50 | elapsed time per iteration (ms): 1000.0 | grad norm: NaN |"
        (PEERS / "dgxc" / "llmb_mbridge_nan_grad_norm.log", "nonfinite", 21, None),
        # 5 lines, the 5th (" ... global_step: 19 | ") has no newline after it
        (PEERS / "cloudai" / "nemo_run_encoded.log", "cut", 5, None),
        # line 404: "[epoch=1][batch=1/5]:", the second run's first step after the first run's 5 epochs
        (ROOT / "sample_logs" / "composer_two_runs_cpu.log", "several_runs", 404, None),
        # line 30: "| device                | NVIDIA A800 80GB PCIe   |" (no peak in hardware.toml for the PCIe A800)
        (PUBLIC / "llmc_a800_d12_table.log", "hw_no_peak", 30, None),
        # lines 23-24: consumed_samples 12.8 at global_step 0, 832 at 10: 819.2, not 10 x global batch 128
        (ROOT / "sample_logs" / "nemo2_llama2-7b_8xh100.log", "consumed_jump", None, 10),
    ],
)
def test_a_warning_names_the_line_or_step_it_concerns(
    path: Path, code: str, line: int | None, step: int | None
) -> None:
    found = [(w.line, w.step) for w in _warnings(path) if w.code == code]
    assert found == [(line, step)]


def test_a_warning_is_its_text() -> None:
    w = RunWarning("the log ends inside a step line (line 5)", "cut", line=5)
    assert (
        w == "the log ends inside a step line (line 5)"
        and json.dumps([w]) == '["the log ends inside a step line (line 5)"]'
    )
    for again in (
        pickle.loads(pickle.dumps(w)),
        copy.deepcopy(w),
    ):  # the batch workers pickle a run's warnings
        assert (again, again.code, again.line, again.step) == (w, "cut", 5, None)
    with pytest.raises(ValueError, match="unknown warning code"):
        RunWarning("text", "no_such_code")


def _codes_in_source() -> set[str]:
    """The code of every RunWarning(...) the package writes (a literal second argument)."""
    found: set[str] = set()
    for path in (ROOT / "logparse").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RunWarning":
                code = node.args[1]
                assert isinstance(code, ast.Constant), f"{path.name}:{node.lineno}: a code is a literal"
                found.add(code.value)
    return found


def test_the_codes_are_documented_and_used() -> None:
    """Each code the package writes is in CODES (also the ones no sample log reaches), each code in CODES
    is written somewhere and described in the module's docstring."""
    used = _codes_in_source()
    assert used <= CODES, sorted(used - CODES)
    assert CODES <= used, f"codes never written: {sorted(CODES - used)}"
    documented = set(re.findall(r"^  ([a-z0-9_]+)\s", warnings_mod.__doc__ or "", re.M))
    assert documented == CODES
