"""Columns: step rows stored column by column, frozen into typed numpy arrays as they grow.

A million rows of a dozen numbers kept as Python lists cost ~30 bytes a value, and turning those lists into a
DataFrame costs seconds (pandas infers each column's type value by value). So rows go into short Python lists
(the *live* tail, where later lines still fill in values: a block's continuation, an attached line) and every
FREEZE_ROWS rows the tail is frozen into a *piece*: per column, the set of Python types it holds and a typed
array: int64 for whole numbers, float64 (with a mask of the None values) for numbers, a list for anything else.
Pieces frozen in another process (a chunk parsed in parallel, see chunks.py) are appended as they are.

The final frame gives each column the dtype pandas infers from the same values in one list: int64 for whole
numbers, float64 when numbers mix with floats or None, bool for booleans, and whatever pandas makes of the
Python values otherwise. So a frame does not depend on how its rows were cut into pieces; the tests compare the
chunked and the single-pass frames of every sample log.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

import numpy as np
import pandas as pd

from ..core.schema import Row

FREEZE_ROWS = 50_000  # rows of the live tail frozen at once; the tail keeps the newest rows mutable
LIVE_ROWS = 1_000  # ... and this many stay live after a freeze (attached lines join recent rows)

# the Python types a column can hold, as bits
NONE, BOOL, INT, FLOAT, STR, OTHER = 1, 2, 4, 8, 16, 32
_BITS = {type(None): NONE, bool: BOOL, int: INT, float: FLOAT, str: STR}
NUMBERS = INT | FLOAT | NONE


def kinds(values: Iterable[Any]) -> int:
    """The type bits of `values`."""
    bits = 0
    for t in set(map(type, values)):
        bits |= _BITS.get(t, OTHER)
    return bits


class Typed:
    """One column of one piece: its type bits and its values in the narrowest exact form."""

    __slots__ = ("bits", "data", "none", "ints", "n")

    def __init__(self, values: list[Any]) -> None:
        self.n = len(values)
        self.bits = kinds(values)
        self.none: np.ndarray | None = None
        self.ints: np.ndarray | None = None
        self.data: Any = values
        if self.bits in (NONE, STR) and self.n and _all_same(values):
            # a column of one value (the rows' kind and pattern, an absent rank or host): kept once, not once a row
            self.data = Constant(values[0])
            return
        if self.bits == INT:
            try:
                self.data = np.array(values, dtype=np.int64)
            except OverflowError:
                self.data = values
        elif self.bits == BOOL:
            self.data = np.array(values, dtype=bool)
        elif self.bits and not self.bits & ~NUMBERS and self.bits != NONE:
            if self.bits & INT and any(abs(v) > 2**53 for v in values if type(v) is int):
                return  # a float64 would round it: keep the list
            self.data = np.array(values, dtype=np.float64)  # None -> NaN
            if self.bits & NONE:
                self.none = np.fromiter((v is None for v in values), dtype=bool, count=self.n)
            if self.bits & INT and self.bits & (FLOAT | NONE):
                self.ints = np.fromiter((type(v) is int for v in values), dtype=bool, count=self.n)

    @classmethod
    def nones(cls, n: int) -> Typed:
        col = cls.__new__(cls)
        col.n, col.bits, col.data, col.none, col.ints = n, NONE, Constant(None), None, None
        return col

    @classmethod
    def of_array(cls, array: np.ndarray) -> Typed:
        """A column of int64 or float64 values read in bulk (fastlane.py)."""
        col = cls.__new__(cls)
        col.n = len(array)
        col.bits = INT if array.dtype == np.int64 else FLOAT
        col.data, col.none, col.ints = array, None, None
        return col

    def values(self) -> list[Any]:
        """The column's Python values, as they were."""
        if isinstance(self.data, list):
            return self.data
        if isinstance(self.data, Constant):
            return [self.data.value] * self.n
        out = self.data.tolist()
        if self.ints is not None:
            for i in np.flatnonzero(self.ints):
                out[i] = int(out[i])
        if self.none is not None:
            for i in np.flatnonzero(self.none):
                out[i] = None
        return out


def _one_value(pieces: list[Typed]) -> Constant | None:
    """The value of a column that holds one value in every piece (None if it holds more)."""
    first = pieces[0].data if pieces else None
    if not isinstance(first, Constant):
        return None
    return first if all(_same_constant(p.data, first) for p in pieces[1:]) else None


def _repeated(value: Any, n: int) -> Any:
    """A column of `n` times `value`, as pandas would type a list of them, without the list: pandas' string
    dtype (Arrow-backed) made of Arrow buffers (_texts), None as an object array (numpy fills a new one with
    None)."""
    if value is None:
        return np.empty(n, dtype=object)
    if type(value) is str and _arrow_strings() is not None:
        return _pandas_strings(_texts(value, n))
    return [value] * n


def _pandas_strings(array: Any) -> Any:
    """An Arrow large_string array as pandas' string array of the dtype a list of str gets, without a copy."""
    from pandas.arrays import ArrowStringArray

    dtype = _arrow_strings()
    try:
        return ArrowStringArray(array, dtype=dtype)
    except TypeError:  # (a pandas whose ArrowStringArray takes no dtype: its own conversion)
        return pd.array(array, dtype=dtype)


@cache
def _arrow_strings() -> pd.StringDtype | None:
    """The dtype pandas gives a list of str when it is its Arrow-backed string dtype (pandas 3), else None."""
    inferred = pd.Series(["text"]).dtype
    return inferred if isinstance(inferred, pd.StringDtype) and inferred.storage == "pyarrow" else None


def _texts(value: str | None, n: int) -> Any:
    """`n` times `value` as an Arrow large_string array (pandas' string storage), built from its buffers: the
    offsets with numpy, the characters as one bytes object (pyarrow.repeat: 0.14 s for 2.4 M rows, this 0.02)."""
    import pyarrow as pa

    if value is None:
        return pa.nulls(n, pa.large_string())
    try:
        data = value.encode("utf-8")
    except UnicodeEncodeError:  # (a lone surrogate: pyarrow's own conversion says what it makes of it)
        return pa.repeat(pa.scalar(value, pa.large_string()), n)
    offsets = np.arange(n + 1, dtype=np.int64) * len(data)
    return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data * n))


def _strings(pieces: list[Typed]) -> Any:
    """A column of text (and None) from its pieces, as pandas' string dtype would hold the concatenated values:
    each piece as Arrow large_string (a piece of one value from its buffers), the pieces concatenated."""
    import pyarrow as pa

    if all(
        isinstance(p.data, list) for p in pieces
    ):  # (one list: its texts joined once, not a piece at a time)
        bits = 0
        for p in pieces:
            bits |= p.bits
        return _pandas_strings(_text_list([v for p in pieces for v in p.data], bits))
    parts = []
    at = 0
    while at < len(pieces):  # (a run of pieces of one value: one array)
        first = pieces[at].data
        if not isinstance(first, Constant):
            parts.append(_text_list(first, pieces[at].bits))
            at += 1
            continue
        end, rows = at, 0
        while end < len(pieces) and _same_constant(pieces[end].data, first):
            rows += pieces[end].n
            end += 1
        parts.append(_texts(first.value, rows))
        at = end
    return _pandas_strings(pa.concat_arrays(parts) if parts else pa.array([], pa.large_string()))


def _same_constant(data: Any, first: Constant) -> bool:
    return isinstance(data, Constant) and data.value == first.value and type(data.value) is type(first.value)


def _text_list(values: list[Any], bits: int) -> Any:
    """A list of str (and None) as an Arrow large_string array. ASCII texts alone are joined and encoded at once,
    their lengths the offsets (pyarrow.array takes 0.5 us a text, this 0.1); anything else through pyarrow."""
    import pyarrow as pa

    if bits == STR:
        joined = "".join(values)
        if joined.isascii():
            offsets = np.zeros(len(values) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, values), dtype=np.int64, count=len(values)), out=offsets[1:])
            return pa.LargeStringArray.from_buffers(
                len(values), pa.py_buffer(offsets), pa.py_buffer(joined.encode("ascii"))
            )
    return pa.array(values, type=pa.large_string())


class Constant:
    """The one value of a column of one piece that holds nothing else."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _all_same(values: list[Any]) -> bool:
    first = values[0]
    return values.count(first) == len(values)


def merge(pieces: list[Typed]) -> Any:
    """One column from its pieces, typed as pandas would type the concatenated values."""
    same = _one_value(pieces)
    if same is not None:
        return _repeated(same.value, sum(p.n for p in pieces))
    bits = 0
    for p in pieces:
        bits |= p.bits
    if bits & STR and not bits & ~(STR | NONE) and _arrow_strings() is not None:
        return _strings(pieces)
    arrays = [p.data for p in pieces]
    typed = all(isinstance(a, np.ndarray) or p.bits == NONE for a, p in zip(arrays, pieces, strict=True))
    if typed and bits in (INT, BOOL):
        return np.concatenate(arrays)
    if typed and bits & (INT | FLOAT) and not bits & ~NUMBERS:
        # numbers (and None): float64, NaN where a value is missing
        return np.concatenate(
            [
                a.astype(np.float64, copy=False) if isinstance(a, np.ndarray) else np.full(p.n, np.nan)
                for a, p in zip(arrays, pieces, strict=True)
            ]
        )
    out: list[Any] = []
    for p in pieces:
        out.extend(p.values())
    return out


class RowBlock:
    """Rows frozen together: column -> Typed, every column `n` long."""

    __slots__ = ("cols", "n")

    def __init__(self, cols: dict[str, Typed], n: int) -> None:
        self.cols = cols
        self.n = n

    @classmethod
    def freeze(cls, lists: dict[str, list[Any]], n: int) -> RowBlock:
        return cls({k: Typed(v) for k, v in lists.items()}, n)

    def column(self, key: str) -> Typed:
        col = self.cols.get(key)
        return col if col is not None else Typed.nones(self.n)

    def set(self, key: str, index: int, value: Any) -> None:
        """Write one value (a line joining a frozen row): the column goes back to a list and is refrozen."""
        values = list(self.column(key).values())
        values[index] = value
        self.cols[key] = Typed(values)


class Columns:
    """Step rows: frozen pieces, then a live tail of Python lists."""

    def __init__(self) -> None:
        self.pieces: list[RowBlock] = []
        self.frozen = 0  # rows in pieces
        self.cols: dict[str, list[Any]] = {}  # the live tail
        self.live = 0

    @property
    def n(self) -> int:
        return self.frozen + self.live

    def _column(self, key: str) -> list[Any]:
        col = self.cols.get(key)
        if col is None:
            col = self.cols[key] = [None] * self.live
        elif len(col) < self.live:
            col.extend([None] * (self.live - len(col)))
        return col

    def append(self, row: Row) -> None:
        for key, value in row.items():
            self._column(key).append(value)
        self.live += 1
        if self.live >= FREEZE_ROWS + LIVE_ROWS:
            self._freeze(self.live - LIVE_ROWS)

    def _freeze(self, rows: int) -> None:
        """Freeze the first `rows` rows of the live tail."""
        head: dict[str, list[Any]] = {}
        for key, col in self.cols.items():
            if len(col) < self.live:
                col.extend([None] * (self.live - len(col)))
            head[key] = col[:rows]
            del col[:rows]
        self.pieces.append(RowBlock.freeze(head, rows))
        self.frozen += rows
        self.live -= rows
        for key in [k for k, c in self.cols.items() if not any(v is not None for v in c)]:
            del self.cols[key]

    def extend(self, piece: RowBlock) -> None:
        """Rows frozen elsewhere (a chunk parsed by a worker), after the current rows."""
        if self.live:
            self._freeze(self.live)
        self.pieces.append(piece)
        self.frozen += piece.n

    def get(self, key: str, index: int) -> Any:
        if index >= self.frozen:
            col = self.cols.get(key)
            i = index - self.frozen
            return col[i] if col is not None and i < len(col) else None
        piece, i = self._locate(index)
        col = piece.cols.get(key)
        return None if col is None else _item(col, i)

    def set(self, key: str, index: int, value: Any) -> None:
        if index >= self.frozen:
            self._column(key)[index - self.frozen] = value
            return
        piece, i = self._locate(index)
        piece.set(key, i, value)

    def _locate(self, index: int) -> tuple[RowBlock, int]:
        end = self.frozen
        for piece in reversed(self.pieces):  # joined rows are usually recent
            start = end - piece.n
            if index >= start:
                return piece, index - start
            end = start
        raise IndexError(index)

    def pieces_all(self) -> list[RowBlock]:
        """Every row, frozen."""
        if self.live:
            self._freeze(self.live)
        return self.pieces

    def frame(self) -> pd.DataFrame:
        """The rows as a DataFrame; the store is empty afterwards."""
        pieces = list(self.pieces)
        if self.live:
            tail = {k: c + [None] * (self.live - len(c)) for k, c in self.cols.items()}
            pieces.append(RowBlock.freeze(tail, self.live))
        keys: dict[str, None] = {}
        for p in pieces:
            keys.update(dict.fromkeys(p.cols))
        self.pieces, self.cols, self.frozen, self.live = [], {}, 0, 0  # the rows now live in the frame
        columns = {}
        for k in keys:
            columns[k] = merge([p.column(k) for p in pieces])
            for p in pieces:  # each column's pieces freed as soon as it is merged
                p.cols.pop(k, None)
        return pd.DataFrame(columns, copy=False)


def _item(col: Typed, i: int) -> Any:
    if isinstance(col.data, list):
        return col.data[i]
    if isinstance(col.data, Constant):
        return col.data.value
    if col.none is not None and col.none[i]:
        return None
    value = col.data[i].item()
    if col.ints is not None and col.ints[i]:
        return int(value)
    return value
