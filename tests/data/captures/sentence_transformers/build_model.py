"""Build the tiny random-init BERT (offline; see tiny_setup.py). Run once before the three runs."""
import sys
sys.path.insert(0, __import__("os").path.dirname(__file__))
from tiny_setup import build_tiny_bert
print(build_tiny_bert(sys.argv[1] if len(sys.argv) > 1 else "/tmp/cap-st-work/tiny-bert"))
