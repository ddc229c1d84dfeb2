"""Reading a TOML file a user wrote (a pattern set, a synonym table, a run's logparse.toml): a file that
cannot be read or parsed is one line naming it, as the error type the caller reports."""

from __future__ import annotations

import datetime
import os
import sys
from typing import Any

import regex

from .bounded import FileRefused, check_nesting, read_bounded
from .errors import LogparseError

Table = dict[str, Any]
"""A TOML table as tomllib reads it, before it is checked: open by nature (a user's file may hold any key and
any kind of value; the readers check it against their schema and say what is wrong)."""

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


# the most a TOML file a user writes is read to: the largest shipped set is 38 kB
MAX_TOML_BYTES = 1 << 20
# ... and the deepest it may nest tables and arrays (a pattern set nests four levels)
MAX_TOML_NESTING = 32


def read_toml(path: str | os.PathLike[str], error: type[LogparseError] = LogparseError) -> Table:
    """The table a TOML file holds: a regular file of at most MAX_TOML_BYTES, UTF-8 (a FIFO, a device, a huge
    or a binary file is one line `error` naming the file and what is wrong with it, not its content)."""
    return parse_toml(read_toml_bytes(path, error), path, error)


def read_toml_bytes(path: str | os.PathLike[str], error: type[LogparseError] = LogparseError) -> bytes:
    """A TOML file's bytes, read as read_toml reads them (bounded, a regular file only)."""
    try:
        return read_bounded(path, MAX_TOML_BYTES)
    except FileRefused as exc:
        raise error(f"{path}: {exc.reason}; not read") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None


def parse_toml(raw: bytes, path: str | os.PathLike[str], error: type[LogparseError] = LogparseError) -> Table:
    """The table of a TOML file's bytes (`path` names it in the error)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path} is not UTF-8 text: save it as UTF-8, as TOML requires") from None
    try:
        table = tomllib.loads(text)
        check_nesting(table, MAX_TOML_NESTING, len(raw) + 1)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML ({exc})") from None
    except ValueError:  # an integer of thousands of digits (int()'s limit), which tomllib does not catch
        raise error(f"{path}: not valid TOML (a number too long to read)") from None
    except RecursionError:  # tomllib reads nested arrays and inline tables recursively
        raise error(f"{path}: nested deeper than {MAX_TOML_NESTING} levels; not read") from None
    except FileRefused as exc:
        raise error(f"{path}: {exc.reason}; not read") from None
    return table


_KINDS = (
    (bool, "true or false"),
    (int, "an integer"),
    (float, "a number"),
    (str, "a string"),
    (list, "a list"),
    (dict, "a table"),
    ((datetime.date, datetime.time), "a date or time"),
)


def kind_of(value: Any) -> str:
    """What a TOML value is, in words, without what it says: a message about a user's file that may reach
    a batch's index.html names the key and the kind of its value, never the value."""
    for kind, words in _KINDS:  # bool before int: True is an int
        if isinstance(value, kind):
            return words
    return "a value"


def without_values(text: str, table: Table, bare: bool = False) -> str:
    """`text` with each value of `table` it quotes shown as its key, `<key>`: a message made from a user's file
    (an unknown hardware named in a run's logparse.toml) reaches a batch's index.html, which never shows the
    file's values (kind_of). A value is found where it is quoted ('h1000', "h1000") and, with `bare`, anywhere
    as a whole word (a message about that one value: `(got -3)`). A path is not a value: a file named under
    it is shown as a log's file name is."""
    for key, value in table.items():
        named = "|".join(regex.escape(n) for n in {key, "--" + key.replace("_", "-")})
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, bool) or not isinstance(item, str | int | float) or item == "":
                continue
            shown = str(item)
            forms = {f"'{shown}'", f'"{shown}"'} | ({repr(item)} if isinstance(item, str) else set())
            pattern = "|".join(regex.escape(f) for f in sorted(forms, key=len, reverse=True))
            # the value just after its own name, as a check of the option against the log says it (`--segment 7`,
            # `window = 900:1000`); a range A:B also as the steps it stands for (`steps 900..1000`)
            pattern += rf"|(?<=(?<![\w-])(?:{named})(?: = |=| )){regex.escape(shown)}(?![\w.])"
            if isinstance(item, str) and (span := regex.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", item)):
                pattern += rf"|(?<![\w.]){span[1]}\.\.{span[2]}(?![\w.])"
            if bare:
                pattern += r"|(?<![\w.+-])" + regex.escape(shown) + r"(?![\w.])"
            text = regex.sub(pattern, lambda _, key=key: f"<{key}>", text, flags=regex.IGNORECASE)
    return text
