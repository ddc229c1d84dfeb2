"""Stage 2, the pattern sets: the set model, loading and validation (`sets`, against the JSON Schema in
`schema`), values and units, detection of the set a log uses, the synonym table custom loops are read
through (`keymap`), a framework's set composed with the generic reading (`compose`), and the line shapes
behind `explain` and `patterns new` (`shapes`). Hands on `PatternSet`s and their `LineSpec`s."""
