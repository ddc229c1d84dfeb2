"""Stage 8, a folder of runs: the runs and their attempts, the cache, the executors (a process pool, Dask)
and their faults (`engine`), a run folder's logparse.toml (`sidecar`), and the leaderboard and index.html
(`page`)."""
