#!/bin/bash
cd "$(dirname "$0")"
/work/capvenv/bin/python run.py 2>&1 | tee console.log
