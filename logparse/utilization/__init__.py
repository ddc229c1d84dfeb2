"""Stage 5, achieved FLOP/s against the hardware's peak: MFU and HFU per step, or the sentence that says why
they cannot be known (`mfu`). Hands on a `Utilization`."""
