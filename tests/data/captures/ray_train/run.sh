#!/bin/bash
cd "$(dirname "$0")"
rm -rf ray_results metrics_dataframe.json
"${PYTHON:-python}" run.py 2>&1 | tee console.log
