"""Stage 6, the run over time: regimes and the shifts between them (`regimes`), warmup, the stable phase,
dips and their cost (`phases`: each step's `Phase`), the fixed windows peers report over (`window`), and
whether the run finished, crashed or diverged (`status`: a `Status` with its `RunStatus`). Hands on
`Phases`."""
