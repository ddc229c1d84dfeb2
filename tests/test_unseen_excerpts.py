"""Logs of projects with no pattern set (tests/data/unseen), read with no format forced, against values read by hand.

Each excerpt is checked by benchmarks/read_unseen.py's strict rule: every key of its `expect` holds. The ones that do
not read right yet are listed in NOT_YET and expected to fail (strict): an excerpt the engine learns to read turns
into a failure here until it is taken off the list, so the list only shrinks. LOGPARSE_UNSEEN_CORPUS points the
same check at another folder of the same layout (a held-out corpus), where NOT_YET does not apply by design.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "tests" / "data" / "unseen"
CORPUS = Path(os.environ.get("LOGPARSE_UNSEEN_CORPUS", DEFAULT))


def _reader():
    spec = importlib.util.spec_from_file_location("read_unseen", ROOT / "benchmarks" / "read_unseen.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


READER = _reader()
EXCERPTS = READER.load_corpus(CORPUS)

# Excerpts of tests/data/unseen that do not read right yet (the baseline of the inferred reading's work)
NOT_YET: set[str] = set()


def _params():
    out = []
    for name in sorted(EXCERPTS):
        marks = []
        if CORPUS == DEFAULT and name in NOT_YET:
            marks.append(pytest.mark.xfail(strict=True, reason="not read right yet"))
        out.append(pytest.param(name, marks=marks))
    return out


@pytest.mark.parametrize("name", _params())
def test_unseen_excerpt_reads_right(name: str) -> None:
    result = READER.read_excerpt(CORPUS, name, EXCERPTS[name])
    assert not result["differences"], f"[{result['format']}] " + "; ".join(result["differences"][:3])


def test_not_yet_names_exist() -> None:
    """A name left on NOT_YET after its excerpt was renamed or removed would hide nothing and mean nothing."""
    if CORPUS != DEFAULT:
        pytest.skip("NOT_YET lists the default corpus")
    assert NOT_YET <= set(EXCERPTS), NOT_YET - set(EXCERPTS)


def test_every_log_is_listed_with_a_source_and_no_format() -> None:
    data = tomllib.loads((CORPUS / READER.SOURCES).read_text())["excerpt"]
    logs = {p.stem for p in CORPUS.glob("*.log")}
    assert logs == set(data), logs ^ set(data)
    for name, entry in data.items():
        assert entry.get("source"), name
        assert "format" not in entry, f"{name}: the unseen corpus is read with no format forced"
        assert entry.get("expect"), f"{name}: nothing to check"
