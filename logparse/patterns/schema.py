"""The shape of a pattern set, declared: ``pattern_set.schema.json`` (JSON Schema, draft 2020-12).

The schema says which tables and keys a pattern file may have, their types, and the names they may take
(columns, facts, event kinds, value types, scopes: the enums are those of ``schema.py``, and a test keeps
them equal). Editors use the same file to complete and check a pattern file (docs/writing-a-pattern-set.md).
This module checks a loaded TOML file against it and turns the first problem, in the order of the file,
into one sentence naming the file, the table ([format], [[line]] "name", [[sample]] #n) and the key, and
saying what is wrong without quoting the value (the kind of value instead, see _show).
What a schema cannot say (regexes compile, named groups name fields, cross-references between lines,
the scope of throughputs, samples) is checked by ``patterns.py``.
"""

from __future__ import annotations

import difflib
import functools
import json
from pathlib import Path
from typing import Any

from ..core.tomlfile import Table, kind_of

SCHEMA_FILE = Path(__file__).resolve().parent / "pattern_set.schema.json"

_TYPES = {
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "true or false",
    "object": "a table",
    "array": "a list",
}
# among errors at one place in the file, the one to report first
_FIRST = ("required", "additionalProperties", "type", "enum", "const", "anyOf")


@functools.cache
def schema() -> Table:
    """The pattern-set JSON Schema, as shipped in the package."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@functools.cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def problem(data: Table, source_file: str) -> str | None:
    """The first way `data` (a parsed pattern file) breaks the schema, as one line; None when it fits."""
    errors = [leaf for e in _validator().iter_errors(data) for leaf in _leaves(e)]
    if not errors:
        return None
    first = min(errors, key=lambda e: (_position(data, e.absolute_path), _rank(e.validator)))
    return f"{source_file}: {_describe(first, data, errors)}"


def where(data: Table, table: str, index: int | None = None) -> str:
    """How a message names a table: [format], [[line]] "iteration" (#n without a usable name), [[sample]] #n."""
    if table == "line" and index is not None:
        line = data["line"][index]
        name = line.get("name") if isinstance(line, dict) else None
        return f'[[line]] "{name}"' if isinstance(name, str) and name else f"[[line]] #{index + 1}"
    if table == "sample" and index is not None:
        return f"[[sample]] #{index + 1}"
    return f"[{table}]"


# --------------------------------------------------------------------------------------------


def _leaves(error: Any) -> list[Any]:
    """An anyOf error stands for its one branch that fits the value's type (a field given as a table is
    checked as a table, not as a column name); when none or several fit, the anyOf error itself."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches: dict[Any, list[Any]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [b for b in branches.values() if _fits(b, error.instance)]
    if len(fitting) != 1:
        return [error]
    return [leaf for sub in fitting[0] for leaf in _leaves(sub)]


def _fits(branch: list[Any], instance: Any) -> bool:
    for e in branch:
        if e.relative_path:
            continue
        if e.validator == "type":
            return False
        if e.validator in ("enum", "const"):
            allowed = e.validator_value if e.validator == "enum" else [e.validator_value]
            if not any(type(v) is type(instance) for v in allowed):
                return False
        if e.validator in ("anyOf", "oneOf") and e.context:
            subs: dict[Any, list[Any]] = {}
            for sub in e.context:
                subs.setdefault(sub.relative_schema_path[0], []).append(sub)
            if not any(_fits(b, instance) for b in subs.values()):
                return False
    return True


def _position(data: Any, path: Any) -> tuple[int, ...]:
    """Where a path points in the file, as indices: errors are reported in the order of the file."""
    out: list[int] = []
    node = data
    for step in path:
        if isinstance(node, list) and isinstance(step, int):
            out.append(step)
        elif isinstance(node, dict) and step in node:
            out.append(list(node).index(step))
        else:
            break
        node = node[step]
    return tuple(out)


def _rank(validator: str) -> int:
    return _FIRST.index(validator) if validator in _FIRST else len(_FIRST)


def _describe(e: Any, data: Table, errors: list[Any]) -> str:
    path = list(e.absolute_path)
    place, keys = _place(path, data)
    # [format] detect: ...   [[line]] "iteration": fields.ms.scale: ...   [[sample]] #2: ...
    prefix = f"{place} " if place.endswith("]") and keys else f"{place}: " if place else ""
    key = ".".join(str(k) for k in keys)
    value = e.instance
    # a key the schema checks by name (propertyNames) is a key, named like every other key; a value is
    # quoted only when it says nothing of the file (_given)
    given = repr(value) if "propertyNames" in e.absolute_schema_path else _given(value)
    subject = given or "the value"
    if e.validator in ("required", "additionalProperties"):
        # a required key and an unknown key at the same place: most likely a typo of the one for the other
        extra = next((x for x in errors if _same(x, e, "additionalProperties")), None)
        unknown = _unknown(extra.instance, extra.schema) if extra is not None else []
        allowed = f"allowed: {', '.join(extra.schema['properties'])}" if unknown else ""
        table = f"{key}: " if key else ""
        if e.validator == "required":
            missing = next(k for k in e.validator_value if k not in value)
            hint = f"; unknown key {_names(unknown)} ({allowed})" if unknown else ""
            return f"{prefix}{table}{_missing(path, missing, e.schema)}{hint}"
        return f"{prefix}{table}unknown key {_names(unknown)} ({allowed}){_retired(unknown)}"
    head = f"{prefix}{key}: " if key else prefix
    if _is_column(e, keys):
        return f"{prefix}{'.'.join(str(k) for k in keys[:2])}: {_column(e, data, path)}"
    if e.validator == "type":
        want = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        text = f"{head}must be {' or '.join(_TYPES.get(t, t) for t in want)}, not {_show(value)}"
        if len(keys) == 2 and keys[0] == "fields" and isinstance(value, str):
            column = json.dumps(value) if given else '"..."'
            text += f" (write {key} = {{ column = {column} }})"
        return text
    if e.validator == "enum" and len(e.validator_value) <= 12:
        return f"{head}{subject} is not one of {', '.join(map(str, e.validator_value))}"
    if e.validator == "enum":
        close = difflib.get_close_matches(str(value), [str(v) for v in e.validator_value], n=1)
        about = e.schema.get("description", "a known name")
        return f"{head}{subject} is not {about}" + (f" (did you mean {close[0]!r}?)" if close else "")
    if e.validator == "const":
        return f"{head}must be {_show(e.validator_value)}, not {_show(value)}"
    if e.validator in ("minItems", "minLength"):
        return f"{head}must not be empty"
    about = e.schema.get("description") or _ref(e.schema).get("description")
    if about and e.validator in ("pattern", "anyOf", "oneOf"):
        return f"{head}{subject} is not valid: {about}"
    # jsonschema's own message quotes the value ("0 is less than or equal to the minimum of 0")
    bound = {"exclusiveMinimum": "greater than", "minimum": "at least", "maximum": "at most"}
    if e.validator in bound:
        return f"{head}must be {bound[e.validator]} {e.validator_value}"
    return f"{head}{subject} is not valid ({e.validator})"


def _place(path: list[Any], data: Table) -> tuple[str, list[Any]]:
    """The table a path is in, as the file writes it, and the keys inside that table."""
    if not path:
        return "", []
    head = path[0]
    if head in ("line", "sample") and len(path) > 1 and isinstance(path[1], int):
        return where(data, head, path[1]), path[2:]
    if head == "format" and len(path) > 2 and path[1] == "composes":
        return f"[format.composes.{path[2]}]", path[3:]
    if head == "format" and len(path) > 1 and path[1] == "reported":
        if len(path) > 3 and path[2] == "columns":
            return f"[format.reported.columns.{path[3]}]", path[4:]
        return "[format.reported]", path[2:]
    if head == "format":
        return "[format]", path[1:]
    return "", path


def _missing(path: list[Any], key: str, sub: Table) -> str:
    if not path:
        return {
            "format": "missing the [format] table",
            "line": "needs at least one [[line]] table",
            "sample": "needs at least one [[sample]] with a real line",
        }.get(key, f"missing {key!r}")
    about = _ref(sub.get("properties", {}).get(key, {}))
    choices = about.get("enum")
    return f"missing key {key!r}" + (f" (one of {', '.join(choices)})" if choices else "")


def _unknown(value: Any, sub: Table) -> list[str]:
    if not isinstance(value, dict) or sub.get("additionalProperties") is not False:
        return []
    return [k for k in value if k not in sub.get("properties", {})]


def _same(x: Any, e: Any, validator: str) -> bool:
    return x.validator == validator and list(x.absolute_path) == list(e.absolute_path)


def _retired(unknown: list[str]) -> str:
    if "unit" in unknown:
        return (
            "; a field's unit is given by scale (ms: 0.001, %: 0.01, MiB: 0.0009765625), or by "
            'units = "time" | "percent" | "memory" | "count" for values that print their unit'
        )
    return ""


def _is_column(e: Any, keys: list[Any]) -> bool:
    """A column name that is not one: `fields.<group>.column`."""
    return len(keys) == 3 and keys[0] == "fields" and keys[2] == "column" and e.validator in ("enum", "anyOf")


def _column(e: Any, data: Table, path: list[Any]) -> str:
    line = data["line"][path[1]]
    kind = line.get("kind")
    known = e.validator_value if e.validator == "enum" else _enums(e)
    what = "fact" if kind in ("config", "summary") else "column"
    where_ = f" for a {kind} line" if isinstance(kind, str) else ""
    close = difflib.get_close_matches(str(e.instance), known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else "see the schema `logparse patterns schema` prints"
    given = _given(e.instance)
    return f"unknown {what}{' ' + given if given else ''}{where_} ({hint})"


def _enums(e: Any) -> list[str]:
    return [v for sub in e.context if sub.validator == "enum" for v in sub.validator_value]


def _ref(sub: Table) -> Table:
    ref = sub.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return schema()["$defs"][ref.removeprefix("#/$defs/")]
    return sub


def _names(keys: list[str]) -> str:
    return ", ".join(repr(k) for k in keys)


def _show(value: Any) -> str:
    """A value as a message shows it: quoted when it says nothing of the file (_given), else its kind
    ("a string")."""
    return _given(value) or kind_of(value)


def _given(value: Any) -> str | None:
    """The value as written, when quoting it tells nothing of the file: true or false, or one of the
    schema's own names (a column, a kind: `'step_time_s'`). Anything else (a string, a number) is not
    quoted: the message reaches a batch's index.html and index.json, and a set folder may hold a file that
    is no pattern set at all."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str) and value in _vocabulary():
        return repr(value)
    return None


@functools.cache
def _vocabulary() -> frozenset[str]:
    """Every string the schema names as an allowed value (its enums and consts)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            names.update(v for v in node.get("enum", []) if isinstance(v, str))
            if isinstance(node.get("const"), str):
                names.add(node["const"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema())
    return frozenset(names)
