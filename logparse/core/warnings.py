"""A run's warning as a record: the sentence a user reads, a short stable `code` a program chooses by
(the batch page, the leaderboard, a test), and the log line or step it concerns (None when it is about no
one line or step).

A RunWarning is a `str` (like patterns.sets.Problem): every consumer of `list[str]` keeps working, and
json.dumps writes only its text, so summary.json's "warnings" stays a list of strings. Choose by `code`,
never by a substring of the text: the text may be reworded, the code may not.

The codes, by what they concern (CODES holds them all; a code not in it is refused):

reading the file
  nul_bytes             NUL bytes in the file (a hole a crash or a rotation left) were skipped (`line`: the first)
  stream_stopped        a compressed file's stream stops before its end (cut, damaged): read up to there
step numbers and lines
  steps_unnumbered      no step number and no epoch length: rows numbered 1, 2, 3, ...
  steps_from_epoch      step numbers derived from a printed epoch that is too coarse to be sure
  micro_step_mismatch   micro-step counters are not multiples of the grad accumulation
  grad_accum_unknown    the steps count micro-batches and the grad accumulation is not stated
  bar_lag               records came after a progress bar redraw that lags them (tqdm)
  bar_missing           records name a progress bar position that was never drawn
  bar_postfix           a tqdm bar's postfix is drawn apart from its position: each step read from its own redraw
  unattached            lines that belong to a neighbouring step record found none to join
  recoverable           a display redrawn in place: some steps recovered from what the log kept
  several_runs          the file holds several runs; the analysis covers one (`line`: where the last begins)
  grad_accum_derived    a run folder's console counts micro-batches: the accumulation derived from its record
  console_differs       a run folder's console fits its step record under no accumulation: the record's steps alone
values on step lines
  nonfinite             step lines log a NaN or infinite value (`line`: the first)
  malformed             a value on a step line does not read as a number (`line`: the first)
  cut                   the log ends inside a step line (`line`: that line)
  out_of_range          a value past the range its column can hold (a count past 2**53, a negative count), left
                        out (`line`: the first)
  stray_stamp           a line's timestamp out of line with its neighbours' or impossible, left out of the wall
                        time and the ledger (`line`: the first)
  consumed_jump         consumed samples jump: not global batch x steps (`step`: the first)
step time and throughput
  step_time_bar_rate    step time is the progress bar's smoothed rate
  bar_jump              a resumed bar starts part-way: its smoothed rate counts the skipped steps, not used
  step_time_unknown     no step time can be read: no throughput, no MFU
  step_time_nonpositive steps with a zero or negative step time, treated as unknown (`step`: the first)
  keras_samples         Keras's bar counts samples: step numbers are sample counts, step time unknown
  sources_disagree      two patterns give the same rate with different figures; one is used
  tokens_differs        the log's tokens per step differ from global batch x sequence length
  global_batch_differs  the global batch is not what the log's consumed samples count
  gpus_implied_differs  the logged per-GPU tokens/s implies another number of GPUs
  tokens_one_gpu        a tokens/s whose name gives no scope is one GPU's: times the step time, it is one GPU's
                        share of the tokens per step
run facts and options
  fact_repeated         the log states a fact several times with different values (`line`: the last)
  option_differs        an option and the log disagree; the option is used
  source_differs        a run folder's file (config.json, wandb-metadata.json) and the log disagree; the log is used
  folder_unread         a run folder's file was not read (an optional reader missing, a damaged file)
  fact_implausible      a stated fact's value is outside its plausible range (core/plausible.py): left out
  patterns_skipped      a `*.toml` in a pattern folder is not a regular file (a FIFO, a folder): not read
  gpus_unknown          the number of GPUs is unknown
  gpus_inferred         the number of GPUs is not stated and is inferred from the log's parallel sizes
  seq_len_unknown       the sequence length is unknown (and the global batch, when tokens/s needs both)
  global_batch_unknown  the global batch is unknown: tokens per step, tokens/s and MFU with it
  global_batch_derived  the global batch is not stated: the micro batch x GPUs x grad accumulation the log states, or
                        a one-process log's batch size with no accumulation stated
model and FLOPs
  model_unknown         the model size is unknown: no FLOPs/token, no MFU
  flops_reported        the model size is unknown: FLOPs are the framework's own
  flops_6n              only the parameter count is known: FLOPs/token = 6N
  flops_per_sample_unused  FLOPs per sample given for a run with no samples/s: not used
  params_not_active     --params is not the active count of a mixture of experts
  params_from_log       N is the log's parameter count, which includes the input embedding
  params_sharded        the log's trainable count is one shard's: multiplied by the GPUs
  params_preset         the log's parameter count is exactly a preset's: its dims are used
  model_mismatch        the log's parameter count is not the --model preset's
  vocab_unpadded        the LM head's vocabulary is the unpadded one
  mlp_assumed           the MLP width is given and nothing says whether it is gated: counted plain
hardware
  hw_unknown            the hardware is unknown: no peak, no MFU
  hw_conflict           the log names different GPUs: none is used
  hw_no_peak            the log names a GPU logparse has no peak for (`line`: where it names it)
  peak_no_dtype         the log's GPU has no published dense peak for the dtype
  peak_unverified       the device's peak is not verified against a datasheet
  mfu_impossible        steps imply an MFU above 100%, flagged (`step`: the first)
the framework's own figures (report.crosscheck)
  reported_implausible  the log's TFLOP/s per GPU is above the dense peak
  reported_mfu_impossible  the log's own MFU is above 100%
  reported_peak_fixed   the framework divides by a fixed peak whatever the GPU
  reported_peak_differs the framework's MFU is against another peak than logparse's
  reported_inputs_differ  the log's figure differs from logparse's even under its own convention
  reported_convention   the log's figure differs from logparse's by the framework's convention only
"""

from __future__ import annotations

CODES: frozenset[str] = frozenset(
    """
    steps_unnumbered steps_from_epoch micro_step_mismatch grad_accum_unknown bar_lag bar_missing bar_postfix
    unattached
    recoverable several_runs
    grad_accum_derived console_differs
    nul_bytes stream_stopped out_of_range stray_stamp
    nonfinite malformed cut consumed_jump
    step_time_bar_rate bar_jump step_time_unknown step_time_nonpositive keras_samples sources_disagree tokens_differs
    global_batch_differs gpus_implied_differs tokens_one_gpu
    fact_repeated option_differs source_differs folder_unread gpus_unknown gpus_inferred seq_len_unknown
    fact_implausible patterns_skipped global_batch_unknown global_batch_derived
    flops_per_sample_unused
    model_unknown flops_reported flops_6n params_not_active params_from_log params_sharded params_preset
    model_mismatch
    vocab_unpadded mlp_assumed
    hw_unknown hw_conflict hw_no_peak peak_no_dtype peak_unverified mfu_impossible
    reported_implausible reported_mfu_impossible reported_peak_fixed reported_peak_differs
    reported_inputs_differ reported_convention
    """.split()
)


class RunWarning(str):
    """A warning's text (the str itself), its `code` (one of CODES) and the log `line` / `step` it concerns."""

    code: str
    line: int | None
    step: int | None

    def __new__(cls, text: str, code: str, *, line: int | None = None, step: int | None = None) -> RunWarning:
        if code not in CODES:
            raise ValueError(f"unknown warning code {code!r} (core/warnings.py lists them)")
        self = super().__new__(cls, text)
        self.code = code
        self.line = None if line is None else int(line)
        self.step = None if step is None else int(step)
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str, str], dict[str, int | None]]:
        # pickling (the batch workers) and copy rebuild it through __new__, which needs the code
        return (str(self), self.code), {"line": self.line, "step": self.step}

    def __repr__(self) -> str:
        where = "".join(f", {k}={v}" for k, v in (("line", self.line), ("step", self.step)) if v is not None)
        return f"RunWarning({str.__repr__(self)}, {self.code!r}{where})"
