"""Stage 3, records x sets to raw rows: every record tried against the chosen sets' line patterns behind one
prefilter (`matcher`), a match's values made canonical (`rows`), filed column by column (`columns`) and
assembled, with events, facts and line accounting, into a `ParsedLog` (`assemble`); a big log read by
several processes (`chunks`) and its step lines through one regex per shape (`fastlane`), both proven equal
to the single pass."""
