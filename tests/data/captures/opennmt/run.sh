#!/bin/bash
cd "$(dirname "$0")"
rm -rf run toy
"${PYTHON:-python}" make_data.py
onmt_build_vocab -config toy.yaml -n_sample 10000 > build_vocab.log 2>&1
onmt_train -config toy.yaml 2>&1 | tee console.log
"${PYTHON:-python}" dump_tfevents.py
