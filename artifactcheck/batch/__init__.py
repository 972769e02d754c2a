"""Batches: score many (artifact, rubric, trace) rows, resumably, then write the
benchmark tables. ``run.py`` runs them in local worker processes (``local_engine.py``) or
on a Dask cluster (``dask_engine.py``); design/batch.md."""

from .run import BatchRow, RowOutcome, read_manifest, run_batch

__all__ = ["BatchRow", "RowOutcome", "read_manifest", "run_batch"]
