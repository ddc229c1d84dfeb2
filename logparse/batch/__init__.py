"""Stage 8, many runs, a client of the API (logparse.api): a folder of runs with their attempts, the cache,
the executors (a process pool, Dask) and their faults (`engine`), a run folder's logparse.toml (`sidecar`),
the leaderboard and index.html (`page`), and several runs on one figure (`compare`)."""
