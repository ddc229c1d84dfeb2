"""What the hardware can do and what a model costs (reference knowledge, no log read here): FLOPs per token
by formula, each citing its source (`formulas`), model presets and dimensions with provenance (`models`),
dense peaks per device and dtype from hardware.toml (`hardware`), and the devices a log names (`devices`).
Read by the stages from `steps` on."""
