"""Start-up: what loading the pattern sets finds is kept on disk under the content it was found from
(patterns/diskcache.py), and a shipped set's regexes are compiled when first used.

Each test has a cache folder of its own (LOGPARSE_CACHE_DIR). What is checked: a warm load neither parses
TOML nor checks samples again and gives the same sets; an edited set is a new key (its broken sample is still
refused); a folder that cannot be written, a corrupted entry or `off` change nothing but the time; the group
names read from a regex's text are the compiled regex's own for every shipped regex.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
import regex

from logparse.core.errors import PatternError
from logparse.core.tomlfile import read_toml
from logparse.frame.assemble import parse_log
from logparse.patterns import diskcache
from logparse.patterns import sets as patterns

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "sample_logs" / "megatron_llama2-7b_8xh100.log"

USER_SET = textwrap.dedent(
    """\
    [format]
    name = "mine"
    detect = ['^mystep \\d+ ']
    [[line]]
    name = "steps"
    kind = "step"
    regex = '^mystep (?P<step>\\d+) loss (?P<loss>[\\d.]+)'
    [[sample]]
    line = "mystep 3 loss 2.5"
    expect = {{ step = 3, loss = {loss} }}
    """
)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("LOGPARSE_CACHE_DIR", str(folder))
    patterns._LOADED.clear()
    patterns._ORDERS.clear()
    yield folder
    patterns._LOADED.clear()
    patterns._ORDERS.clear()


def _fresh_load(*dirs: str) -> dict:
    patterns._LOADED.clear()
    patterns._ORDERS.clear()
    patterns._DERIVED.clear()
    return patterns.load_sets(dirs)


def _counting(monkeypatch, name: str) -> list[int]:
    calls = [0]
    real = getattr(patterns, name)

    def counted(*a, **k):
        calls[0] += 1
        return real(*a, **k)

    monkeypatch.setattr(patterns, name, counted)
    return calls


def test_a_warm_load_parses_no_toml_and_checks_no_sample(cache, monkeypatch):
    cold = _fresh_load()
    cold_order = patterns.specificity_order(cold)
    assert {p.name.split("-")[0] for p in cache.iterdir()} == {"order", "samples", "set"}
    checks, tomls = _counting(monkeypatch, "sample_failures"), _counting(monkeypatch, "parse_toml")
    warm = _fresh_load()
    assert checks == [0] and tomls == [0]
    assert sorted(warm) == sorted(cold)
    assert patterns.specificity_order(warm) == cold_order
    # the same sets: every line's regex text, literals, prefix and fields
    for name, ps in cold.items():
        want = [(s.name, s.regex_src, s.literals, s.prefix, sorted(s.fields)) for s in ps.lines]
        assert [
            (s.name, s.regex_src, s.literals, s.prefix, sorted(s.fields)) for s in warm[name].lines
        ] == want
        assert warm[name].detect_literals == ps.detect_literals


def test_a_log_reads_the_same_through_a_cold_and_a_warm_cache(cache):
    cold = parse_log(str(SAMPLE), _fresh_load())
    warm = parse_log(str(SAMPLE), _fresh_load())
    assert cold.rows.equals(warm.rows)
    assert cold.format == warm.format == "megatron"


def test_a_shipped_set_compiles_only_the_regexes_a_log_uses(cache):
    parse_log(str(SAMPLE), _fresh_load())  # cold: every sample checked, the sets ordered, all compiled
    sets = _fresh_load()  # warm: nothing compiled up front
    assert not any("regex" in s.__dict__ for ps in sets.values() if ps.trusted for s in ps.lines)
    parse_log(str(SAMPLE), sets)
    compiled = {name for name, ps in sets.items() for s in ps.lines if "regex" in s.__dict__}
    assert "megatron" in compiled
    assert {"deepspeed", "hf_trainer", "torchtitan", "nanogpt"}.isdisjoint(compiled), compiled


def test_an_edited_set_is_checked_again(cache, tmp_path):
    user = tmp_path / "sets"
    user.mkdir()
    (user / "mine.toml").write_text(USER_SET.format(loss=2.5))
    assert "mine" in _fresh_load(str(user))
    (user / "mine.toml").write_text(
        USER_SET.format(loss=9.5)
    )  # the sample now expects what the line does not say
    with pytest.raises(PatternError, match=r"mine sample #1.*loss is 2\.5, expected 9\.5"):
        _fresh_load(str(user))


def test_a_corrupted_or_foreign_entry_is_ignored(cache):
    cold = _fresh_load()
    for path in cache.iterdir():
        if path.name.startswith("set-"):
            path.write_text("{not json")
        elif path.name.startswith("order-"):
            path.write_text(json.dumps({"key": "another", "value": ["x"]}))
        else:
            path.write_text(json.dumps({"key": path.stem.split("-", 1)[1], "value": "yes"}))
    warm = _fresh_load()
    assert sorted(warm) == sorted(cold)
    assert patterns.specificity_order(warm) == patterns._specificity_order(cold)


def test_off_or_an_unwritable_folder_keeps_nothing_and_loads_all(tmp_path, monkeypatch):
    monkeypatch.setenv("LOGPARSE_CACHE_DIR", "off")
    assert diskcache.folder() is None
    assert "megatron" in _fresh_load()
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would be")
    monkeypatch.setenv("LOGPARSE_CACHE_DIR", str(blocker / "cache"))
    assert "megatron" in _fresh_load()
    assert not (blocker / "cache").exists()
    patterns._LOADED.clear()


def test_the_default_folder_is_under_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("LOGPARSE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.folder() == tmp_path / "logparse"


def test_a_code_change_is_a_new_key(monkeypatch):
    before = diskcache.digest(b"same set")
    monkeypatch.setattr(diskcache, "code_digest", lambda: "another version of the code")
    assert diskcache.digest(b"same set") != before


def _shipped_regexes():
    for path in sorted(patterns.shipped_dir().glob("*.toml")):
        data = read_toml(path)
        for ld in data["line"]:
            for key in ("regex", "pairs", "complete"):
                if key in ld:
                    yield f"{path.name}:{ld['name']}:{key}", ld[key]


def test_group_names_from_the_text_are_the_compiled_ones_for_every_shipped_regex():
    seen = 0
    for where, text in _shipped_regexes():
        assert patterns.group_names(text) == list(regex.compile(text, regex.VERSION0).groupindex), where
        seen += 1
    assert seen > 300


@pytest.mark.parametrize(
    "text, names",
    [
        (r"(?P<a>\d+) (?<b>x)", ["a", "b"]),
        (r"\(?P<no>x\) (?P<yes>y)", ["yes"]),  # an escaped parenthesis opens no group
        (r"[(?P<no>] (?P<yes>y)", ["yes"]),  # nor one inside a class
        (r"[]](?P<a>x)", ["a"]),
        (r"\\(?P<a>x)", ["a"]),  # an escaped backslash, then a group
        (r"(?<=x)(?<!y)(?P<a>z)", ["a"]),  # lookbehinds are no names
        (r"(?P<a>x)|(?P<a>y)", ["a"]),
    ],
)
def test_group_names(text, names):
    assert patterns.group_names(text) == names == list(regex.compile(text).groupindex)


def test_the_cache_survives_concurrent_writers(cache):
    """Two loads writing the same entries (batch workers) leave whole entries: each is written, then renamed."""
    _fresh_load()
    keys = {p.name for p in cache.iterdir()}
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            for p in cache.iterdir():
                p.unlink()
            _fresh_load()
        finally:
            os._exit(0)
    _fresh_load()
    os.waitpid(pid, 0)
    for p in cache.iterdir():
        assert p.name in keys or p.name.startswith("."), p.name
        if not p.name.startswith("."):
            json.loads(p.read_text())
