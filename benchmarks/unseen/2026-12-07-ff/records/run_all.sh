#!/bin/bash
# Run from the capture folder (/work/corpus/2026-12-07-ff) inside the venv /tmp/cap-spacy.
set -e
python records/make_data.py records/data
python records/make_configs.py
for run in "spacy_textcat textcat" "spacy_ner ner" "spacy_tagger_progress tagger"; do
  set -- $run
  rm -f records/$1_console.jsonl records/$1_info.jsonl
  /usr/bin/time -v -o records/$1.time \
  python -m spacy train records/$1.cfg --output /tmp/cap-spacy-out/$1 \
      --paths.train records/data/$2_train.spacy --paths.dev records/data/$2_dev.spacy \
      --code records/info_logger.py > $1.log 2>&1
done
