"""What a logparse.toml says is checked where it is read, and an error about it names the file and the key and
what is wrong, never the value (the README's promise: the batch's index.html shows these errors): a number
outside what the option can mean (`gpus = 100000000000000000000` stopped the whole batch's index), a number that
is not finite, a name logparse does not know, bytes that are not UTF-8, a FIFO of the name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from logparse.batch.sidecar import find_sidecar, load_sidecar
from logparse.core.errors import LogparseError
from tests.conftest import TOY_SET

SECRET = "SECRET12345"


def sidecar(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "logparse.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.mark.parametrize(
    "text, said",
    [
        # a GPU count no job has (10**20): 1,048,576 is the plausible range's top (core/plausible.py)
        ("gpus = 100000000000000000000", "gpus: must be 1 to 1,048,576"),
        ("gpus = 0", "gpus: must be at least 1"),
        ("seq_len = 99999999999999999", "seq_len: must be 1 to 4,294,967,296"),
        ("params = 1e300", "params: must be 1 to 1e+16"),
        ("params = nan", "params: must be a finite number"),
        ("peak_tflops = inf", "peak_tflops: must be a finite number"),
        ("gpu_hour_cost = -7", "gpu_hour_cost: must be positive"),
        ("segment = -31337", "segment: must be at least 0"),
    ],
)
def test_a_number_out_of_range_names_the_key_and_the_range_not_the_value(tmp_path, text, said):
    path = sidecar(tmp_path, text + "\n")
    with pytest.raises(LogparseError) as info:
        load_sidecar(path)
    assert str(info.value) == f"{path}: {said}"  # the whole message: no value of the file in it


@pytest.mark.parametrize(
    "key, said",
    [
        ("hw", "hw: names no hardware logparse knows"),
        ("model", "model: names no model preset logparse knows"),
        ("window", "window: expected the first and last step as A:B"),
        ("format", "format: names no pattern set logparse has"),
    ],
)
def test_a_name_logparse_does_not_know_is_refused_by_its_key(tmp_path, key, said):
    """The analysis refused these by quoting them (`unknown hardware 'SECRET'`), and the page showed it."""
    path = sidecar(tmp_path, f'{key} = "{SECRET}"\n')
    with pytest.raises(LogparseError) as info:
        load_sidecar(path)
    assert str(info.value).startswith(f"{path}: {said}") and SECRET not in str(info.value)


def test_known_names_and_a_format_from_the_sidecars_own_folder_pass(tmp_path):
    (tmp_path / "pats").mkdir()
    (tmp_path / "pats" / "toy.toml").write_text(TOY_SET)
    path = sidecar(
        tmp_path, 'hw = "h100"\nmodel = "llama3-8b"\nwindow = "10:20"\nformat = "toy"\npatterns = ["pats"]\n'
    )
    assert load_sidecar(path)["format"] == "toy"
    assert load_sidecar(sidecar(tmp_path, "gpus = 1048576\nseq_len = 8192\n")) == {
        "gpus": 1048576,
        "seq_len": 8192,
    }


def test_a_sidecar_that_is_not_utf8_is_one_line(tmp_path):
    """It was an internal error (UnicodeDecodeError) for the run."""
    path = sidecar(tmp_path, b"gpus = 8\n# caf\xe9 \xff\n")
    with pytest.raises(LogparseError) as info:
        load_sidecar(path)
    assert str(info.value) == f"{path} is not UTF-8 text: save it as UTF-8, as TOML requires"


def test_a_fifo_named_logparse_toml_is_found_and_refused_without_waiting(tmp_path):
    """find_sidecar passed over it (not a file) silently; it is the run's sidecar that cannot be read."""
    (tmp_path / "run").mkdir()
    os.mkfifo(tmp_path / "run" / "logparse.toml")
    found = find_sidecar(tmp_path / "run", tmp_path)
    assert found == tmp_path / "run" / "logparse.toml"
    with pytest.raises(LogparseError, match=r"logparse\.toml: not a regular file \(a FIFO\); not read$"):
        load_sidecar(found)
