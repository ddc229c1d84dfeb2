"""Matcher: the line patterns of the chosen sets, in the order they are tried, behind one literal prefilter.

A record is offered to each chosen set in turn and, within a set, to each ``[[line]]`` in file order; the
first pattern that matches wins (``PatternSet.match``). Most records of a big log are noise that no pattern
can match, and most of the rest match one pattern of a dozen. Every pattern already knows the text a
matching line must contain: its ``hint``, the literals derived from its regex (``required_literals``), or
the literal text its regex anchors at the start (``required_prefix``). The matcher indexes those needles:

- one alternation search over the record rejects a record that holds none of them (and starts with no
  anchored prefix), without calling a single pattern;
- otherwise only the patterns whose needles the record holds are tried, still in the original order;
- a text that matched nothing is remembered (the last MISSES of them): noise lines repeat.

The result is the same as trying every pattern in order: a pattern skipped here is one whose own
prefilter (``LineSpec.match``) would have refused the record.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..patterns.sets import DIGITS, LineSpec, LineValues, PatternSet

Hit = tuple[LineSpec, LineValues]
MISSES = 4096  # unmatched texts remembered


class Matcher:
    """The chosen sets' line patterns in match order, with a prefilter index over their needles."""

    def __init__(self, chosen: Sequence[PatternSet]) -> None:
        self.sets = list(chosen)
        self.specs: list[LineSpec] = [spec for ps in self.sets for spec in ps.lines]
        for spec in self.specs:  # a matcher reads one log: each pattern's time budget starts again
            spec.reset_budget()
        self.index = {id(spec): i for i, spec in enumerate(self.specs)}  # a pattern's place in `specs`
        # a line joins the step record it names (attach = "step"): rows must be findable by step number
        self.attaches_by_step = any(spec.attach == "step" for spec in self.specs)
        self._by_needle: dict[str, list[int]] = {}
        self._prefixed: list[tuple[str, int]] = []
        self._always: list[int] = []  # patterns with nothing to filter on: tried on every record
        for i, spec in enumerate(self.specs):
            needles = spec.needles()
            if needles:
                for needle in needles:
                    self._by_needle.setdefault(needle, []).append(i)
            elif spec.prefix is not None:
                self._prefixed.append((spec.prefix, i))
            else:
                self._always.append(i)
        self._needles = tuple(self._by_needle)
        # texts that matched nothing, recently: noise repeats (a warning every step, NCCL's chatter per rank),
        # and matching is a function of the text alone
        self._misses: dict[str, None] = {}
        self._prefixes = tuple(sorted({p for p, _ in self._prefixed}))
        longest_first = sorted(self._needles, key=len, reverse=True)
        self._any = re.compile("|".join(map(re.escape, longest_first))) if longest_first else None

    def candidates(self, text: str) -> list[int]:
        """Indices (in match order) of the patterns whose prefilter `text` passes."""
        found = set(self._always)
        if self._any is not None and self._any.search(text) is not None:
            for needle in self._needles:
                if needle in text:
                    found.update(self._by_needle[needle])
        if self._prefixes and text.startswith(self._prefixes):
            found.update(i for p, i in self._prefixed if text.startswith(p))
        return sorted(found)

    def rejects(self, text: str) -> bool:
        """True when no pattern can match `text` (it holds no needle, no anchored prefix, and every pattern
        has something to filter on)."""
        return (
            not self._always
            and (self._any is None or self._any.search(text) is None)
            and not (self._prefixes and text.startswith(self._prefixes))
        )

    def matched_before(self, text: str, index: int) -> bool:
        """Whether a pattern tried before pattern `index` matches `text` (then `match` gives that one)."""
        earlier = [i for i in self.candidates(text) if i < index]
        if not earlier:
            return False
        layout = text.translate(DIGITS)
        return any(self.specs[i].match(text, layout) is not None for i in earlier)

    def match(self, text: str) -> Hit | None:
        """The first pattern, in match order, that matches `text`, with its values; None for none."""
        if text in self._misses:
            return None
        layout = text.translate(DIGITS)  # once for every pattern read by layout (LineSpec._by_layout)
        for i in self.candidates(text):
            spec = self.specs[i]
            values = spec.match(text, layout)
            if values is not None:
                return spec, values
        if len(self._misses) >= MISSES:
            self._misses.clear()
        self._misses[text] = None
        return None
