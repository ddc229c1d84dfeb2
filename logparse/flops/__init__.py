"""What the hardware can do and what a model costs: FLOPs per token by formula, each citing its source
(`formulas`), model presets and dimensions with provenance (`models`), dense peaks per device and dtype from
hardware.toml (`hardware`), and the devices a log names (`devices`). Reference knowledge, read by the
stages from `steps` on; it reads no log."""
