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
from typing import Any

from ..patterns import compose
from ..patterns.sets import DIGITS, LineSpec, LineValues, PatternSet

# DIGITS for UTF-8 bytes: ASCII digits masked as DIGITS masks them, every other byte kept
_DIGIT_BYTES = bytes(DIGITS.get(b, b) for b in range(256))

Hit = tuple[LineSpec, LineValues]
Earlier = tuple[tuple[tuple[str, tuple[int, ...]], ...], tuple[int, ...], tuple[tuple[str, int], ...]]
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
        # the training script's own step prints read after the chosen sets (patterns/compose.py)
        self._guests = [i for i, spec in enumerate(self.specs) if spec.guest]
        # texts that matched nothing, recently: noise repeats (a warning every step, NCCL's chatter per rank),
        # and matching is a function of the text alone
        self._misses: dict[str, None] = {}
        self._earlier_of: dict[int, Earlier] = {}  # pattern index -> the prefilter of the patterns before it
        # matched_before's answers by (pattern index, layout), for the indices whose earlier patterns all read by
        # layout (_by_layout_before), for the patterns that read by layout
        self._before: dict[tuple[int, str], bool] = {}
        # the lines a range read as noise, with their record's text and rank (chunks._Worker.noise), per process
        self.noise: dict[str, tuple[str, Any]] = {}
        self._split_before: dict[int, tuple[frozenset[int], tuple[int, ...]]] = {}
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
        """Whether a pattern tried before pattern `index` matches `text` (then `match` gives that one). The
        candidates among those patterns only (`candidates` weighs every needle of every pattern: most of the
        time of the fast lane's check of an event line).

        When every pattern before `index` reads by layout (LineSpec._by_layout: two texts that differ only digit
        for digit match alike) and none filters on a digit, the answer is the same for every text of one layout,
        and is looked up: the fast lane asks it of every checkpoint line of a log that saves every few steps, and
        they are a few layouts (1 GiB, a save every 8 steps: 300,000 asks)."""
        by_layout, others = self._split(index)
        if not by_layout:
            return self._matched_before(text, index)
        layout = text.translate(DIGITS)
        return self._by_layout_answer(text, index, layout, by_layout) or self._others_match(
            text, others, layout
        )

    def matched_before_all(self, texts: list[str], index: int) -> list[bool]:
        """matched_before of each of `texts` (lines: no newline in one), its lookup made once for all texts of one
        layout: keyed by their UTF-8 bytes with the ASCII digits masked, which part the texts as
        str.translate(DIGITS) does, made for all texts at once (a window's checkpoint lines)."""
        by_layout, others = self._split(index)
        if not by_layout or not texts:
            return [self._matched_before(text, index) for text in texts]
        keys = "\n".join(texts).encode("utf-8", "surrogatepass").translate(_DIGIT_BYTES).split(b"\n")
        answers: dict[bytes, bool] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in answers:
                answers[key] = self._by_layout_answer(text, index, text.translate(DIGITS), by_layout)
        # (the patterns that do not read by layout: asked of each text the lookup did not match)
        return [
            answers[key] or self._others_match(text, others) for key, text in zip(keys, texts, strict=True)
        ]

    def _others_match(self, text: str, others: tuple[int, ...], layout: str | None = None) -> bool:
        """Whether one of the patterns `others` (in order) matches `text`; `layout`: its digits masked, if made."""
        return any(self._may_match(i, text) and self.specs[i].match(text, layout) is not None for i in others)

    def _split(self, index: int) -> tuple[frozenset[int], tuple[int, ...]]:
        split = self._split_before.get(index)
        if split is None:
            split = self._split_before[index] = self._by_layout_before(index)
        return split

    def _by_layout_answer(self, text: str, index: int, layout: str, by_layout: frozenset[int]) -> bool:
        """Whether one of the patterns before `index` that read by layout matches texts of `layout` (looked up)."""
        key = (index, layout)
        got = self._before.get(key)
        if got is None:
            if len(self._before) >= MISSES:
                self._before.clear()
            got = self._before[key] = self._matched_before(text, index, layout, only=by_layout)
        return got

    def _by_layout_before(self, index: int) -> tuple[frozenset[int], tuple[int, ...]]:
        """The patterns before `index` split in two: those that read by layout and filter on no digit (their
        hint, literals, anchored prefix), whether one of which matches a text depends on its layout alone; and
        the others, in order. (An empty first part: no lookup.)"""

        def by_layout(spec: LineSpec) -> bool:
            texts = (spec.hint, spec.prefix, *(spec.literals or ()))
            return spec._by_layout and not any(ch.isdigit() for t in texts if t for ch in t)

        ours = [i for i in range(index) if by_layout(self.specs[i])]
        return frozenset(ours), tuple(i for i in range(index) if i not in ours)

    def _may_match(self, i: int, text: str) -> bool:
        """Whether `text` passes pattern i's prefilter (a needle it holds, its anchored prefix, or none)."""
        spec = self.specs[i]
        needles = spec.needles()
        if needles:
            return any(needle in text for needle in needles)
        return spec.prefix is None or text.startswith(spec.prefix)

    def _matched_before(
        self, text: str, index: int, layout: str | None = None, only: frozenset[int] | None = None
    ) -> bool:
        """matched_before, weighing every pattern before `index`, or those in `only`."""
        needles, always, prefixed = self._earlier(index)
        earlier = set(always)
        for needle, indices in needles:
            if needle in text:
                earlier.update(indices)
        for prefix, i in prefixed:
            if text.startswith(prefix):
                earlier.add(i)
        if only is not None:
            earlier &= only
        if not earlier:
            return False
        if layout is None:
            layout = text.translate(DIGITS)
        return any(self.specs[i].match(text, layout) is not None for i in sorted(earlier))

    def _earlier(self, index: int) -> Earlier:
        """The prefilter of the patterns tried before pattern `index`: (needle, those of its patterns) pairs,
        the patterns with nothing to filter on, the (anchored prefix, pattern) pairs."""
        got = self._earlier_of.get(index)
        if got is None:
            needles = tuple(
                (needle, tuple(i for i in indices if i < index))
                for needle, indices in self._by_needle.items()
                if any(i < index for i in indices)
            )
            always = tuple(i for i in self._always if i < index)
            prefixed = tuple((p, i) for p, i in self._prefixed if i < index)
            got = self._earlier_of[index] = (needles, always, prefixed)
        return got

    def match(self, text: str) -> Hit | None:
        """The first pattern, in match order, that matches `text`, with its values; None for none."""
        if text in self._misses:
            return None
        layout = text.translate(DIGITS)  # once for every pattern read by layout (LineSpec._by_layout)
        for i in self.candidates(text):
            spec = self.specs[i]
            values = spec.match(text, layout)
            if values is not None:
                if self._guests and spec.kind in ("step", "progress") and not spec.guest and "%|" in text:
                    hit = self._described(text, spec, values)
                    if hit[0] is spec and spec.kind == "progress":
                        return self._postfixed(text) or hit
                    return hit
                return spec, values
        if len(self._misses) >= MISSES:
            self._misses.clear()
        self._misses[text] = None
        return None

    def outside(self, text: str, spec: LineSpec) -> tuple[LineValues | None, list[str]]:
        """What a framework's line pattern reads of a bar line's last frame (None: the pattern reads more than the
        bar, HF Trainer's dict glued after the frames), and the texts outside the frames the pattern does not need
        to match (a description it reads, Lightning's "Epoch 0:", is its own)."""
        last, spans = compose.outside_bars(text)
        framed = spec.match(last) if spans else None
        if framed is None:
            return None, []
        outside = [text[a:b] for a, b in spans if spec.match(f"{text[:a]} {text[b:]}")]
        pieces = [piece.strip().rstrip(":").rstrip() for piece in outside]
        return framed, [piece for piece in pieces if piece]

    def _postfixed(self, text: str) -> Hit | None:
        """A bar a framework's set reads as progress only, whose postfix holds the training script's values (a
        loop's own tqdm bar under accelerate: diffusers' train_unconditional.py sets the postfix {"loss", "lr",
        "step"}): the generic reading's row of it, as where no framework's set reads the log."""
        for i in self._guests:
            spec = self.specs[i]
            if spec.kind != "step":
                continue
            printed = spec.match(text)
            if printed is not None:
                return spec, printed
        return None

    def _described(self, text: str, spec: LineSpec, values: LineValues) -> Hit:
        """A framework's bar line whose text outside the bar (its description, a print glued after it) is a step
        print of the training script: that print's row, with the bar's values beside its own (the print names the
        step; the bar reads only the bar)."""
        framed, pieces = self.outside(text, spec)
        for piece in pieces:
            for i in self._guests:
                printed = self.specs[i].match(piece)
                if printed is None or framed is None:
                    continue
                printed = printed.copy()
                # the bar's last frame, where the line left it; the print numbers its step, not the bar's position
                for name, value in framed.items():
                    if name not in compose.BAR_COUNTERS:
                        printed.setdefault(name, value)
                printed[compose.BAR_READ] = compose.bar_read(spec.kind, spec.qualname, framed)
                for what in ("problems", "windowed"):
                    if getattr(framed, what):
                        printed.__dict__[what] = [*getattr(printed, what), *getattr(framed, what)]
                return self.specs[i], printed
        return spec, values
