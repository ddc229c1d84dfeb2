"""Property tests: no input crashes the reader, and resolved steps always increase."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logparse import api
from logparse.core.errors import LogparseError
from logparse.read.reader import read_records
from tests import synth


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=4000))
def test_arbitrary_bytes_never_crash_the_reader(tmp_path, data):
    path = tmp_path / "x.log"
    path.write_bytes(data)
    try:
        for rec in read_records(str(path)):
            assert "\n" not in rec.text and "\r" not in rec.text
    except LogparseError:
        pass  # empty or binary: a sentence, not a crash


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), dup=st.booleans())
def test_resolved_steps_strictly_increase_and_duplicates_change_nothing(tmp_path, seed, dup):
    rng = random.Random(seed)
    crash = rng.randint(30, 70)
    spec = synth.Spec(
        steps=80, seed=seed, restart=(crash, crash - rng.randint(1, 20)), all_ranks=rng.random() < 0.5
    )
    text, _ = synth.megatron_log(spec)
    path = tmp_path / "a.log"
    path.write_text(text)
    base = api.parse(str(path))
    assert base["step"].is_monotonic_increasing and base["step"].is_unique
    assert list(base["step"]) == list(range(1, 81))
    if dup:
        doubled = "".join(line + "\n" + line + "\n" for line in text.splitlines())
        path.write_text(doubled)
        again = api.parse(str(path))
        cols = ["step", "step_time_s", "loss", "tokens_per_s"]
        assert again[cols].equals(base[cols])
