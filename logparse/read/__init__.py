"""Stage 1, bytes to records: open a log (plain or compressed, a file or a stream), decode it, strip
launcher prefixes and terminal codes, split progress-bar redraws, cut over-long lines, and hand on
`Record`s (text, line number) with `ReadStats` (`reader`); which files are the attempts of one job, in the
order they ran (`attempts`)."""
