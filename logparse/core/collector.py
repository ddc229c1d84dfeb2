"""The cyclic garbage collector in a command's process.

`logparse analyze` imports pandas, numpy and matplotlib (some 180,000 objects) and then analyzes one log;
each of the collector's passes over the older generations walks all of them again, and they are never
garbage. Freezing what exists once the imports are done (gc.freeze: the objects move to a generation no pass
visits) made the README's sample 10% faster end to end (issue 24: paired runs, wall median 0.90 of before), and
a forked process's copy-on-write pages stay shared. A batch's worker does not: there a run's leftovers (a
figure in cycles) would have to be collected before each freeze, and that costs more than it saves. A library
call leaves the caller's collector alone."""

from __future__ import annotations

import gc


def settle() -> None:
    """Freeze what exists now out of the collector's passes (what becomes garbage later is still collected);
    once: called again (the next log of the command), it leaves the first log's leftovers to the collector."""
    if not gc.get_freeze_count():
        gc.freeze()
