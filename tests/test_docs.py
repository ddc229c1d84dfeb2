"""docs/architecture.md stays true: every dotted name it mentions imports, every stage of the package is on it
and on the README's Development drawing, and nothing it names is gone."""

from __future__ import annotations

import importlib
import re

import logparse.api
from tests.conftest import ROOT

PAGE = (ROOT / "docs" / "architecture.md").read_text()
PACKAGE = ROOT / "logparse"
STAGES = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())


def _resolve(dotted: str) -> object:
    """The object a dotted name means: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)  # AttributeError: the page names something that is not there
        return obj
    raise ModuleNotFoundError(dotted)


def test_every_name_the_architecture_page_mentions_exists():
    names = sorted(set(re.findall(r"`(logparse(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`", PAGE)) - {"logparse.toml"})
    assert len(names) >= 30  # the page names the stages' records and functions, not a handful
    missing = []
    for name in names:
        try:
            _resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert missing == []


def test_every_stage_is_on_the_page_and_in_the_readme_drawing():
    assert {"core", "read", "patterns", "frame", "steps", "report", "batch"} <= set(STAGES)
    readme = (ROOT / "README.md").read_text()
    drawing = readme[readme.index("## Development") :]
    for stage in STAGES:
        assert re.search(rf"^{stage}/", PAGE, re.M), f"{stage}/ is not in docs/architecture.md's tree"
        assert f"{stage}/" in drawing, f"{stage}/ is not in the README's Development section"
    assert logparse.api.__file__  # the top of the tree the page draws
