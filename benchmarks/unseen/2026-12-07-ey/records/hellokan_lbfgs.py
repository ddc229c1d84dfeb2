# pykan "Hello, KAN!" quick start (hellokan.ipynb / docs intro in github.com/KindXiaoming/pykan), code copied
# except: steps=20 instead of 50, plotting dropped, and the dict fit() returns dumped to JSON (the record).
import json
import sys
from kan import *
torch.set_default_dtype(torch.float64)

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
print(device)

# create a KAN: 2D inputs, 1D output, and 5 hidden neurons. cubic spline (k=3), 5 grid intervals (grid=5).
model = KAN(width=[2,5,1], grid=3, k=3, seed=42, device=device)

from kan.utils import create_dataset
# create dataset f(x,y) = exp(sin(pi*x)+y^2)
f = lambda x: torch.exp(torch.sin(torch.pi*x[:,[0]]) + x[:,[1]]**2)
dataset = create_dataset(f, n_var=2, device=device)

# train the model
results = model.fit(dataset, opt="LBFGS", steps=20, lamb=0.001);

# added: the record
json.dump({k: [float(v) for v in vs] for k, vs in results.items()}, open(sys.argv[1], "w"), indent=1)
