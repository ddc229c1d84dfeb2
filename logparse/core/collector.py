"""The cyclic garbage collector in a command's process.

`logparse analyze` imports pandas, numpy and matplotlib (some 180,000 objects) and then analyzes one log;
each of the collector's passes over the older generations walks all of them again, and they are never
garbage. Freezing what exists once the imports are done (gc.freeze: the objects move to a generation no pass
visits) made the README's sample 10% faster end to end (paired runs, wall median 0.90 of before), and
a forked process's copy-on-write pages stay shared. A batch's worker does not: there a run's leftovers (a
figure in cycles) would have to be collected before each freeze, and that costs more than it saves. A library
call leaves the caller's collector alone.

The command line goes one step further (`pause`, from its main()): no pass at all runs while a command imports
its modules. Each pass during the imports walks everything imported so far, for nothing: the imports of an
`analyze` took 0.08-0.10 s less without them (0.54 against 0.45 s, medians of 8; matplotlib's in the drawing
process 0.06 s less). `settle` (analyze, once imported) or `resume` (any other command, at its start) turns
the collector back on."""

from __future__ import annotations

import gc

_paused = False  # pause() turned the collector off, and nothing has turned it on since


def pause() -> None:
    """No collection until `settle` or `resume` (a command's imports); a collector already off stays off."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Turn the collector back on if `pause` turned it off."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def settle() -> None:
    """Freeze what exists now out of the collector's passes (what becomes garbage later is still collected);
    once: called again (the next log of the command), it leaves the first log's leftovers to the collector.
    A collector paused for the imports runs again from here."""
    if not gc.get_freeze_count():
        gc.freeze()
    resume()
