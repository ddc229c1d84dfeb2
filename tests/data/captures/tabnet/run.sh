#!/bin/bash
cd "$(dirname "$0")"
"${PYTHON:-python}" run.py 2>&1 | tee console.log
