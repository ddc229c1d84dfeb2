"""Stage 4, raw rows to one row per optimizer step: the run's facts with their provenance, the option winning
over the log with a warning (`runfacts`), micro-batch vs optimizer step, per-GPU vs cluster rates, step
numbers where the log prints none (`bars`, `epoch_steps`), restarts and segments (`segments`), which of two
lines to believe for a step's speed (`sources`), where a step's time and throughput come from (`timing`:
`StepTime`, `Throughput`), the step frame's internal columns (`stepframe`: flags, windowed marks, cadence)
and the words its outputs carry (`kinds`); hands on a `Run` (`run`)."""
