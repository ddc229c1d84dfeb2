"""The shared core every stage may import: the vocabulary (step columns, run facts, event kinds: `schema`),
a run fact with its provenance and the options a user gave (`facts`, `options`), the errors a user can cause
(`errors`), a run's warnings with their codes (`warnings`), reading a user's TOML (`tomlfile`), run names (`naming`), outputs written whole (`atomic`), and the shape
of summary.json as types (`summary_types`: the records the stages hand to the report).
It imports no stage."""
