#!/bin/bash
cd "$(dirname "$0")"
rm -rf run toy
V=/work/capvenv2/bin
$V/python make_data.py
$V/onmt_build_vocab -config toy.yaml -n_sample 10000 > build_vocab.log 2>&1
$V/onmt_train -config toy.yaml 2>&1 | tee console.log
$V/python dump_tfevents.py && $V/python mkexpect.py
