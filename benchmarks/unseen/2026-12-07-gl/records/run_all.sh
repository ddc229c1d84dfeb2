#!/bin/bash
# The three nanodo runs of this folder, run from the nanodo git checkout (as its README does).
# venv: /tmp/cap-nanodo (see README.md); nanodo checkout: /tmp/cap-nanodo/src (commit 10aefde, with the one
# data.py edit of README.md); tiny local data: /tmp/cap-nanodo/data/licenses.{train,test}.txt (copies in records/data/).
set -u
. /tmp/cap-nanodo/bin/activate
cd /tmp/cap-nanodo/src
OUT=/work/corpus/2026-12-07-gl
RUNS=/tmp/cap-nanodo/runs
COMMON="--config=nanodo/configs/default.py \
  --config.vocab_path=tests/testdata/sentencepiece_cc_all.32000.100extra-sentencepiece.model \
  --config.ds_name=textlines:/tmp/cap-nanodo/data/licenses \
  --config.model.L=128 --config.model.D=64 --config.model.H=4 --config.model.N=2 --config.model.F=256 \
  --config.batch_size=4 --config.pygrain_worker_count=0 --config.opt.warmup_steps=10"

case "$1" in
1) # defaults for logging (log_internal_metrics=True), train metrics every 2 steps, eval every 10, checkpoint every 20
  python nanodo/main.py $COMMON --config.workdir=$RUNS/wd_internal \
    --config.opt.num_train_steps=40 --config.write_train_metrics_every_steps=2 \
    --config.write_perf_metrics_every_steps=10 --config.eval_every_steps=10 --config.eval_steps=5 \
    --config.checkpoint_every_steps=20 > $OUT/nanodo_internal_metrics_every2.log 2>&1 ;;
2) # log_internal_metrics=False, train metrics every step, eval + checkpoint every 15 steps, 30 steps
  python nanodo/main.py $COMMON --config.workdir=$RUNS/wd_resume \
    --config.opt.num_train_steps=30 --config.write_train_metrics_every_steps=1 \
    --config.write_perf_metrics_every_steps=10 --config.eval_every_steps=15 --config.eval_steps=5 \
    --config.checkpoint_every_steps=15 --config.log_internal_metrics=False > $OUT/nanodo_every_step.log 2>&1 ;;
3) # the same command and workdir as 2 with num_train_steps=50: restores checkpoint 30 and goes on to 50
  python nanodo/main.py $COMMON --config.workdir=$RUNS/wd_resume \
    --config.opt.num_train_steps=50 --config.write_train_metrics_every_steps=1 \
    --config.write_perf_metrics_every_steps=10 --config.eval_every_steps=10 --config.eval_steps=5 \
    --config.checkpoint_every_steps=10 --config.log_internal_metrics=False > $OUT/nanodo_resume_from_ckpt30.log 2>&1 ;;
esac
echo "run $1 exit $?"
