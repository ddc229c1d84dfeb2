# Darts quick start (NBEATSModel fit/predict) on a synthetic sine series (AirPassengersDataset needs a
# download, which fails offline). Default verbosity: Lightning's TQDM progress bar + model summary.
import sys
from darts.utils.timeseries_generation import sine_timeseries, gaussian_timeseries
from darts.models import NBEATSModel
from record_cb import JsonlRecord

series = (sine_timeseries(length=400, value_frequency=1 / 24, value_y_offset=1.0)
          + gaussian_timeseries(length=400, std=0.05, start=sine_timeseries(length=1).start_time())).astype("float32")
train, val = series[:-48], series[-48:]

model = NBEATSModel(
    input_chunk_length=24, output_chunk_length=12,
    num_stacks=2, num_blocks=1, num_layers=2, layer_widths=32,
    n_epochs=15, batch_size=32, random_state=42,
    pl_trainer_kwargs={"callbacks": [JsonlRecord(sys.argv[1])]},
)
model.fit(train)
pred = model.predict(n=48)
print("MAPE-ish mean abs err:", float(abs(pred.values() - val.values()).mean()))
