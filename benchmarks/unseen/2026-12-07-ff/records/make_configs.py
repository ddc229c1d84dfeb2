"""Make the three training configs: `spacy init config` (efficiency), then set the [training] steps and logger."""
import subprocess
import sys

from thinc.api import Config

RUNS = {
    # name: (pipeline component, eval_frequency, max_steps, console logger block)
    "spacy_textcat": ("textcat", 20, 400,
                      {"@loggers": "spacy.ConsoleLogger.v3", "progress_bar": None, "console_output": True,
                       "output_file": "records/spacy_textcat_console.jsonl"}),
    "spacy_ner": ("ner", 20, 300,
                  {"@loggers": "spacy.ConsoleLogger.v1", "progress_bar": False}),
    "spacy_tagger_progress": ("tagger", 10, 200,
                              {"@loggers": "spacy.ConsoleLogger.v3", "progress_bar": "train", "console_output": True,
                               "output_file": "records/spacy_tagger_progress_console.jsonl"}),
}

for name, (pipe, freq, steps, console) in RUNS.items():
    path = f"records/{name}.cfg"
    subprocess.run([sys.executable, "-m", "spacy", "init", "config", path, "--lang", "en", "--pipeline", pipe,
                    "--optimize", "efficiency", "--force"], check=True)
    cfg = Config().from_disk(path, interpolate=False)
    cfg["training"]["eval_frequency"] = freq
    cfg["training"]["max_steps"] = steps
    cfg["training"]["logger"] = {
        "@loggers": "spacy.ChainLogger.v1",
        "logger1": console,
        "logger2": {"@loggers": "records.InfoJSONL.v1", "path": f"records/{name}_info.jsonl"},
    }
    cfg.to_disk(path, interpolate=False)
    print("wrote", path)
