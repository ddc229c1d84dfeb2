"""RecBole training run as in recbole.quick_start.run_recbole (same steps, same logging), but keeping the
trainer so its own record (trainer.train_loss_dict, the per-evaluation valid results, the
printed epoch times and checkpoint saves) can be dumped to JSON.

usage: python recbole_run.py MODEL RECORD.json [key=value ...]   (run from a working dir holding dataset/ml-100k)
       key=value pairs go into config_dict (values parsed as Python literals);
       resume=PATH resumes from a checkpoint saved by an earlier run (trainer.resume_checkpoint);
       test=0 stops after trainer.fit (no test-set evaluation, no closing summary).
"""
import ast
import json
import sys
from logging import getLogger

from recbole.config import Config
from recbole.data import create_dataset, data_preparation
from recbole.data.transform import construct_transform
from recbole.utils import (get_environment, get_flops, get_model, get_trainer, init_logger, init_seed,
                           set_color)


def main():
    model_name, record_path = sys.argv[1], sys.argv[2]
    config_dict = {}
    resume = None
    run_test = True
    for kv in sys.argv[3:]:
        k, v = kv.split("=", 1)
        if k == "resume":
            resume = v
            continue
        if k == "test":
            run_test = v not in ("0", "False", "false")
            continue
        try:
            config_dict[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            config_dict[k] = v

    config = Config(model=model_name, dataset="ml-100k", config_dict=config_dict)
    init_seed(config["seed"], config["reproducibility"])
    init_logger(config)
    logger = getLogger()
    logger.info(sys.argv)
    logger.info(config)

    dataset = create_dataset(config)
    logger.info(dataset)
    train_data, valid_data, test_data = data_preparation(config, dataset)

    init_seed(config["seed"] + config["local_rank"], config["reproducibility"])
    model = get_model(config["model"])(config, train_data._dataset).to(config["device"])
    logger.info(model)
    transform = construct_transform(config)
    flops = get_flops(model, dataset, config["device"], logger, transform)
    logger.info(set_color("FLOPs", "blue") + f": {flops}")

    trainer = get_trainer(config["MODEL_TYPE"], config["model"])(config, model)

    # --- record hooks: capture the framework's own values as it computes them ---
    record = {"epoch_lines": [], "evaluations": [], "checkpoint_saves": []}
    orig_gen = trainer._generate_train_loss_output

    def gen(epoch_idx, s_time, e_time, losses):
        record["epoch_lines"].append({"epoch": epoch_idx, "time_s": e_time - s_time, "train_loss": losses})
        return orig_gen(epoch_idx, s_time, e_time, losses)

    trainer._generate_train_loss_output = gen
    orig_valid = trainer._valid_epoch
    pending = {}

    def valid(valid_data, show_progress=False):
        score, result = orig_valid(valid_data, show_progress=show_progress)
        pending["v"] = (score, dict(result))
        return score, result

    trainer._valid_epoch = valid

    def callback_fn(epoch_idx, valid_score):
        score, result = pending.pop("v")
        record["evaluations"].append({"epoch": epoch_idx, "valid_score": score, "valid_result": result})

    orig_save = trainer._save_checkpoint

    def save(epoch, verbose=True, **kwargs):
        record["checkpoint_saves"].append({"epoch": epoch, "file": kwargs.get("saved_model_file", trainer.saved_model_file)})
        return orig_save(epoch, verbose=verbose, **kwargs)

    trainer._save_checkpoint = save
    if resume:
        trainer.resume_checkpoint(resume)

    best_valid_score, best_valid_result = trainer.fit(
        train_data, valid_data, saved=True, show_progress=config["show_progress"], callback_fn=callback_fn
    )
    test_result = None
    if run_test:
        test_result = trainer.evaluate(test_data, load_best_model=True, show_progress=config["show_progress"])

        environment_tb = get_environment(config)
        logger.info("The running environment of this training is as follows:\n" + environment_tb.draw())
        logger.info(set_color("best valid ", "yellow") + f": {best_valid_result}")
        logger.info(set_color("test result", "yellow") + f": {test_result}")

    record.update({
        "model": model_name,
        "config_dict": config_dict,
        "resume": resume,
        "train_loss_dict": {str(k): v for k, v in trainer.train_loss_dict.items()},
        "best_valid_score": best_valid_score,
        "best_valid_result": dict(best_valid_result) if best_valid_result else None,
        "test_result": dict(test_result) if test_result is not None else None,
        "saved_model_file": trainer.saved_model_file,
    })
    with open(record_path, "w") as f:
        json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
