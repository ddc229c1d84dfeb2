"""Stage 7, what a person reads about one run: its `Findings` (`analysis`), the framework's own figures against
ours (`crosscheck`), summary.json (its shape: `core.summary_types`), steps.csv and the text summary (`outputs`), what
is unknown and what to pass (`unknowns`), and report.png: its figures gathered from the frames (`gather`, into a
pandas-free `figdata.ReportData`), drawn by `plots` (event marks' looks in `styles`), in a forked process where it
pays (`drawing`). The API (logparse.api) runs the stages up to here; what comes after it is its client."""
