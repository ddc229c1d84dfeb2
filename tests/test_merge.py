"""Merging the rows several ranks (or one rank twice) printed for a step: the vectorized merge against pandas'
groupby (the reference) on random frames, and a hand-worked case."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logparse.steps.merge import StepGroups, merge_duplicates, merge_grouped

NAN = float("nan")


def test_two_ranks_merge_by_hand():
    # rank 1 is slower at step 2 (1.5 s against 1.0 s): the step lasts 1.5 s, its slowest rank is 1
    steps = pd.DataFrame(
        {
            "pattern": ["it"] * 4,
            "line": [10, 11, 20, 21],
            "rank": [0, 1, 1, 0],
            "step": [1, 1, 2, 2],
            "step_time_s": [2.0, 2.0, 1.5, 1.0],
            "loss": [NAN, 3.0, 2.5, 2.4],
            "flags": [None, "a", "b,c", "a"],
            "segment": [0, 0, 0, 0],
        }
    )
    got = merge_duplicates(steps, {})
    assert got["step"].tolist() == [1, 2]
    assert got["line"].tolist() == [10, 20]
    assert got["ranks"].tolist() == [2, 2]
    assert got["step_time_s"].tolist() == [2.0, 1.5]
    assert got["step_time_s_min"].tolist() == [2.0, 1.0]
    assert got["slowest_rank"].tolist() == [0, 1]  # a tie goes to the first row printed
    assert got["loss"].tolist() == [3.0, 2.5]  # the first value printed, a NaN skipped
    assert got["flags"].tolist() == ["a", "a,b,c"]


def _frame(draw) -> pd.DataFrame:
    n = draw(st.integers(0, 30))
    ints = st.lists(st.integers(0, 3), min_size=n, max_size=n)
    floats = st.lists(st.sampled_from([NAN, 0.5, 1.0, 1.5, 2.0]), min_size=n, max_size=n)
    cols = {
        "pattern": draw(st.lists(st.sampled_from(["a", "b", None]), min_size=n, max_size=n)),
        "line": list(range(1, n + 1)),
        "step": draw(ints),
        "segment": draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
        "loss": draw(floats),
        "count": draw(ints),
    }
    if draw(st.booleans()):
        cols["rank"] = draw(ints)
    if draw(st.booleans()):
        cols["step_time_s"] = draw(floats)
    if draw(st.booleans()):
        cols["flags"] = draw(st.lists(st.sampled_from([None, "x", "y,x", "z"]), min_size=n, max_size=n))
    frame = pd.DataFrame(cols)
    frame["pattern"] = frame["pattern"].astype("str")
    if draw(st.booleans()):  # in the order resolve gives them, or as they come
        frame = frame.sort_values(["segment", "step"], kind="stable").reset_index(drop=True)
    return frame


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_vectorized_merge_is_pandas_groupby(data):
    steps = data.draw(st.composite(_frame)())
    pd.testing.assert_frame_equal(merge_duplicates(steps, {}), merge_grouped(steps, {}))


def test_non_integer_keys_and_aggregates_are_left_to_pandas():
    steps = pd.DataFrame(
        {"line": [1, 2, 3], "step": [1.0, 1.0, NAN], "segment": [0, 0, 0], "loss": [1.0, 2.0, 3.0]}
    )
    assert StepGroups.of(steps) is None
    got = merge_duplicates(steps, {})
    assert got["step"].tolist() == [1.0] and got["loss"].tolist() == [
        1.0
    ]  # a null step is dropped, as pandas does
    steps = pd.DataFrame({"line": [1, 2], "step": [1, 1], "segment": [0, 0], "loss": [1.0, 2.0]})
    assert merge_duplicates(steps, {"loss": "last"})["loss"].tolist() == [2.0]


@pytest.mark.parametrize(
    "rows", [[(0, 1), (0, 2), (1, 1)], [(0, 2), (0, 1)], [(1, 1), (0, 5)], [(0, 1), (0, 1)]]
)
def test_groups_sort_by_segment_then_step(rows):
    seg, step = (np.array(x) for x in zip(*rows, strict=True))
    groups = StepGroups([seg, step])
    pairs = sorted(set(rows))
    assert len(groups.starts) == len(pairs)
    assert [(int(seg[r]), int(step[r])) for r in groups.first] == pairs
    assert groups.repeats == (len(pairs) < len(rows))
