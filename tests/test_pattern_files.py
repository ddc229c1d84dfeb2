"""Pattern folders and the key maps their sets name are read as a user's files are: only regular `*.toml` files
of a pattern folder (a FIFO is skipped with a warning, not waited on), a key map only inside the pattern
folders (a set in a batch's run folder cannot make logparse read any other file, nor quote it), each file
bounded in size, and a key map's content part of every cache key that a set's is (the batch cache, the disk
cache, the process's loaded sets)."""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from logparse import api
from logparse.batch import engine
from logparse.core.errors import PatternError
from logparse.patterns import sets as patterns

SECRET = "SECRET-12345"

# a set whose step line maps its key=value pairs through the key map `maps/km.toml` beside it
KV_SET = """\
[format]
name = "kv"
detect = ['^kv step']

[[line]]
name = "step"
kind = "step"
regex = '^kv step (?P<step>\\d+):'
pairs = '(?P<key>\\w+)=(?P<value>\\S+)'
keymap = "KEYMAP"

[[sample]]
line = "kv step 3: foo=1.5"
expect = { step = 3 }
"""
FOO_IS_LOSS = '[step.loss]\nkeys = ["foo"]  # pad\n'
FOO_IS_STEP_TIME = '[step.step_time_s]\nkeys = ["foo"]\n'
KV_LOG = "".join(f"kv step {i}: foo=1.5\n" for i in range(1, 31))


def kv_folder(tmp_path: Path, keymap: str = "maps/km.toml", table: str = FOO_IS_LOSS) -> Path:
    """tmp/pats/kv.toml naming `keymap`, and the key map itself at pats/maps/km.toml."""
    pats = tmp_path / "pats"
    (pats / "maps").mkdir(parents=True)
    (pats / "kv.toml").write_text(KV_SET.replace("KEYMAP", keymap))
    (pats / "maps" / "km.toml").write_text(table)
    return pats


def load(pats: Path):
    return patterns.load_sets([str(pats)], check_samples=False)


def line_of(sets) -> patterns.LineSpec:
    return sets["kv"].lines[0]


@contextmanager
def writer_of(fifo: Path):
    """A thread that opens `fifo` for writing, again and again: a reader that opens it waiting (what logparse did)
    reads an empty file instead of hanging the test; released at the end whatever happened."""
    done = threading.Event()

    def write() -> None:
        while not done.is_set():
            os.close(os.open(fifo, os.O_WRONLY))  # waits for a reader

    t = threading.Thread(target=write, daemon=True)
    t.start()
    try:
        yield
    finally:
        done.set()
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the reader the last open waits for
        t.join(timeout=5)
        os.close(fd)


# ------------------------------------------------------------------------------------------ key maps


def test_a_key_map_in_a_subfolder_of_the_pattern_folder_maps_the_keys(tmp_path):
    values = line_of(load(kv_folder(tmp_path))).match("kv step 4: foo=2.5")
    assert values == {"step": 4, "loss": 2.5}


def test_an_edited_key_map_is_another_batch_cache_key_and_another_load(tmp_path):
    """The batch cache keyed a run on its sets' bytes only: with the key map edited, it served the rows the old
    map gave. The key map's bytes are part of the key, and a process that loaded the sets loads them again."""
    pats = kv_folder(tmp_path)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "kv.log").write_text(KV_LOG)
    [job], _ = engine.plan_runs(runs, tmp_path / "out", {"patterns": (str(pats),)})
    before = engine.fingerprint(job)
    assert line_of(load(pats)).match("kv step 4: foo=2.5") == {"step": 4, "loss": 2.5}
    km = pats / "maps" / "km.toml"
    stat = km.stat()
    assert len(FOO_IS_STEP_TIME) == len(FOO_IS_LOSS)
    km.write_text(FOO_IS_STEP_TIME)  # the same size ...
    os.utime(km, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # ... and modification time: only the bytes differ
    assert engine.fingerprint(job) != before
    patterns._LOADED.clear()  # (the stamp cannot tell this edit; a new process reads the file again)
    assert line_of(load(pats)).match("kv step 4: foo=2.5") == {"step": 4, "step_time_s": 2.5}
    km.write_text(FOO_IS_LOSS + "\n")  # an edit the stamp tells: the loaded sets are not reused
    assert line_of(load(pats)).match("kv step 4: foo=2.5") == {"step": 4, "loss": 2.5}


@pytest.mark.parametrize("where", ["relative", "absolute", "link", "device"])
def test_a_key_map_outside_the_pattern_folders_is_refused_without_quoting_it(tmp_path, where):
    """A set in a batch's run folder named a key map anywhere (`../../outside/km.toml`, `/dev/zero`): it was
    read, and its parse error quoted its path and its content into index.html."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "km.toml").write_text(f'[step.loss]\nkeys = ["foo"]\n[step.{SECRET}]\nkeys = ["x"]\n')
    named = {
        "relative": "../outside/km.toml",
        "absolute": str(outside / "km.toml"),
        "link": "maps/link.toml",
        "device": "/dev/zero",
    }[where]
    pats = kv_folder(tmp_path / "inside", keymap=named)
    if where == "relative":
        (pats.parent / "outside").symlink_to(outside)
    (pats / "maps" / "link.toml").symlink_to(outside / "km.toml")
    with pytest.raises(PatternError) as info:
        load(pats)
    message = str(info.value)
    assert message.startswith(f'{pats / "kv.toml"}: [[line]] "step": keymap: ') and "\n" not in message
    assert "outside the pattern folders" in message
    assert SECRET not in message and "outside/" not in message and "/dev/zero" not in message


def test_a_key_map_that_is_no_regular_file_or_too_big_is_refused_in_one_line(tmp_path):
    pats = kv_folder(tmp_path, keymap="maps/f.toml")
    fifo = pats / "maps" / "f.toml"
    os.mkfifo(fifo)
    with (
        writer_of(fifo),
        pytest.raises(PatternError, match=r"f\.toml: not a regular file \(a FIFO\); not read"),
    ):
        load(pats)
    (pats / "kv.toml").write_text(KV_SET.replace("KEYMAP", "maps/big.toml"))
    (pats / "maps" / "big.toml").write_text(FOO_IS_LOSS + "#" * (1 << 20))  # a comment past 1 MiB
    with pytest.raises(
        PatternError, match=r"big\.toml: 1,048,6\d\d bytes, more than the 1 MiB logparse reads of it"
    ):
        load(pats)


def test_a_key_map_error_names_the_key_by_its_place_not_its_value(tmp_path):
    pats = kv_folder(
        tmp_path, table=f'[step.loss]\nkeys = ["foo"]\n[step.lr]\nkeys = ["x", "{SECRET}", "foo"]\n'
    )
    with pytest.raises(PatternError) as info:
        load(pats)
    assert "[step.lr]: keys #3 is already mapped to 'loss'" in str(info.value)
    assert SECRET not in str(info.value)


# ------------------------------------------------------------------------------------------ pattern folders


def test_a_fifo_or_folder_named_toml_in_a_pattern_folder_is_skipped_with_a_warning(tmp_path):
    """A FIFO named x.toml in a sidecar's pattern folder hung the whole batch (the cache key read it, then the
    loader); now only regular files are read, the others named in the run's warnings."""
    runs = tmp_path / "runs"
    pats = kv_folder(runs / "a")
    os.mkfifo(pats / "x.toml")
    (pats / "y.toml").mkdir()
    (runs / "a" / "kv.log").write_text(KV_LOG)
    (runs / "a" / "logparse.toml").write_text('patterns = ["pats"]\n')
    [job], _ = engine.plan_runs(runs, tmp_path / "out", {})
    with writer_of(pats / "x.toml"):
        assert engine.fingerprint(job) is not None  # the batch's cache key, as each run computes it first
        run = api.resolve(runs / "a" / "kv.log", patterns=[str(pats)])
    assert run.parsed.format == "kv"
    skipped = [str(w) for w in run.warnings if w.code == "patterns_skipped"]
    assert skipped == [
        f"{pats / 'x.toml'}: not read as a pattern set (a FIFO: a set is a regular file)",
        f"{pats / 'y.toml'}: not read as a pattern set (a folder: a set is a regular file)",
    ]


def test_set_files_lists_regular_files_and_links_to_them(tmp_path):
    (tmp_path / "a.toml").write_text("")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    (tmp_path / "c.toml").symlink_to(tmp_path / "gone.toml")
    (tmp_path / "d.txt").write_text("")
    files, skipped = patterns.set_files(tmp_path)
    assert files == [tmp_path / "a.toml", tmp_path / "b.toml"]
    assert skipped == [f"{tmp_path / 'c.toml'}: not read as a pattern set (No such file or directory)"]


def test_a_set_file_too_big_is_refused_in_one_line(tmp_path):
    pats = kv_folder(tmp_path)
    (pats / "kv.toml").write_text(KV_SET.replace("KEYMAP", "maps/km.toml") + "#" * (1 << 20))
    with pytest.raises(
        PatternError,
        match=r"kv\.toml: 1,048,\d{3} bytes, more than the 1 MiB logparse reads of it; not read$",
    ):
        load(pats)


def test_a_set_nested_thousands_deep_is_one_line_not_a_recursion_error(tmp_path):
    pats = tmp_path / "pats"
    pats.mkdir()
    (pats / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(PatternError, match=r"deep\.toml: nested deeper than 32 levels; not read$"):
        load(pats)
