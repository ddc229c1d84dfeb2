#!/bin/bash
cd "$(dirname "$0")"
rm -f record.json
/work/capvenv2/bin/python run.py 2>&1 | tee console.log
/work/capvenv2/bin/python mkexpect.py
