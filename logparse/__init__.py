"""logparse: honest throughput, MFU/HFU, stability and dips from LLM training console logs."""

__version__ = "0.1.0"
