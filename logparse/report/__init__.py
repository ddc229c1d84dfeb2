"""Stage 7, what a person reads: the `Analysis` of one run (`analysis`), the framework's own figures against
ours (`crosscheck`), summary.json, steps.csv and the text summary (`outputs`), report.png (`plots`), and
several runs on one figure (`compare`)."""
