"""The number reader reads a whole printed number or nothing.

`lm loss: 1.18245#E+01` was read as 1.18245 and `elapsed time per iteration (ms): 108#38.6` as 108: the reader
took the number's prefix and dropped what followed. A value with junk inside is malformed, never a smaller
number; its NaN is not a NaN the log printed, so the run is not 'diverged'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import logparse
from logparse.patterns.sets import MalformedValue, to_number

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
# symbols, and letters (a letter glued inside a number is no unit: "1.18x2459E+01" was read as 1.18)
JUNK = "#@$&*!?~^`=\\xmQ"
FORMATS = ("{:.6E}", "{:.4f}", "{:.1f}", "{:g}", "{:,.2f}", "{:.3e}")


@given(
    st.floats(min_value=-1e12, max_value=1e12, allow_nan=False),
    st.sampled_from(FORMATS),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(JUNK),
)
def test_junk_anywhere_in_a_number_is_malformed_or_exact(value, fmt, at, junk):
    printed = fmt.format(value)
    at = min(at, len(printed))
    glued = printed[:at] + junk + printed[at:]
    try:
        got = to_number(glued)
    except MalformedValue:
        return
    # the only reading allowed is the whole printed number's own value
    assert got == float(printed.replace(",", "")), (glued, got)


@pytest.mark.parametrize(
    "text",
    [
        "1.18245#E+01",
        "108#38.6",
        "x1.182459E+01",
        "9.2$",
        "1,234#5",
        "1.18x2459E+01",
        "3.000000E-0x5",
        "5.2x06",
        "1x.182459E+01",
    ],
)
def test_the_issues_values_are_malformed(text):
    with pytest.raises(MalformedValue):
        to_number(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1.064275E+01", 10.64275),
        (" 12137.8 ", 12137.8),
        ("'6.222'", 6.222),
        ("1,234.5", 1234.5),
        ("45%", 45.0),
        ("12.3 ms", 12.3),
        ("1.08 (1.10)", 1.08),
        ("2.31.", 2.31),
    ],
)
def test_numbers_as_logs_print_them_still_read(text, value):
    assert to_number(text) == value


def test_junk_in_a_megatron_line_is_malformed_not_a_smaller_number_and_not_divergence(tmp_path):
    """The shipped Megatron sample with three values spoiled as a damaged copy spoils them (junk glued into the
    digits): steps 10, 20 and 30 are flagged malformed with their value NaN (not 1.12, not 0.68 s), the rest reads as before, and the run is
    complete, not diverged (the log printed no NaN)."""
    lines = (SAMPLES / "megatron_llama2-7b_8xh100.log").read_text().splitlines()
    spoil = {
        " iteration       10/": (r"lm loss: ([\d.]+)E\+01", r"lm loss: x\1E+01"),
        " iteration       20/": (r"lm loss: ([\d.]+)E\+01", r"lm loss: \1#E+01"),
        " iteration       30/": (r"\(ms\): (\d\d\d)(\d)", r"(ms): \1#\2"),
    }
    out = []
    for line in lines:
        for key, (old, new) in spoil.items():
            if key in line:
                line = re.sub(old, new, line)
        out.append(line)
    path = tmp_path / "junk.log"
    path.write_text("\n".join(out) + "\n")
    a = logparse.analyze(path, gpus=8, hw="h100")
    assert a.summary["lines"]["malformed"] == 3
    assert a.summary["status"] == "complete"
    rows = a.run.all_steps.set_index("step")
    assert rows.loc[[10, 20], "loss"].isna().all() and pd_isna(rows.at[30, "step_time_s"])
    assert all("malformed" in str(rows.at[s, "flags"]) for s in (10, 20, 30))
    assert rows.at[40, "loss"] == float(
        re.search(r"iteration       40/.*?lm loss: (\S+) ", "\n".join(lines)).group(1)
    )


def pd_isna(v) -> bool:
    return v != v


def test_every_junk_character_at_every_position_of_fixed_values():
    """The property above, swept exhaustively over fixed values (deterministic: a CI run cannot draw its
    luck): each junk character at each position of each value in each format is malformed or exact."""
    values = [0.0, -1.0, 1.0, 0.5, 1e-5, 99.99, 123456.789, 1e6, -1e9, 1e12, -987654.321, 3.0e-4, 12137.8]
    wrong = []
    for value in values:
        for fmt in FORMATS:
            printed = fmt.format(value)
            for at in range(len(printed) + 1):
                for junk in JUNK:
                    glued = printed[:at] + junk + printed[at:]
                    try:
                        got = to_number(glued)
                    except MalformedValue:
                        continue
                    if got != float(printed.replace(",", "")):
                        wrong.append((glued, got))
    assert wrong == []
