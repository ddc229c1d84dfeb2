# Darts quick start with a validation series: TCNModel.fit(train, val_series=val) on a synthetic sine series
# (AirPassengersDataset needs a download, which fails offline). Default verbosity (Lightning TQDM bar).
import sys
from darts.utils.timeseries_generation import sine_timeseries, gaussian_timeseries
from darts.models import TCNModel
from record_cb import JsonlRecord

series = (sine_timeseries(length=400, value_frequency=1 / 24, value_y_offset=1.0)
          + gaussian_timeseries(length=400, std=0.05, start=sine_timeseries(length=1).start_time())).astype("float32")
train, val = series[:-80], series[-80:]

model = TCNModel(
    input_chunk_length=24, output_chunk_length=12,
    kernel_size=3, num_filters=4, dilation_base=2, dropout=0.1,
    n_epochs=12, batch_size=32, random_state=42,
    pl_trainer_kwargs={"callbacks": [JsonlRecord(sys.argv[1])]},
)
model.fit(train, val_series=val)
pred = model.predict(n=24)
print("mean abs err:", float(abs(pred.values() - val[:24].values()).mean()))
