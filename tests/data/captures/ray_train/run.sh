#!/bin/bash
cd "$(dirname "$0")"
rm -rf ray_results metrics_dataframe.json
/work/capvenv/bin/python run.py 2>&1 | tee console.log
