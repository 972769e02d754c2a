"""The environment variables that tell a worker process how to render: the shared render
pool announced by its owner (read by :mod:`.selection`), and whether a layout read may use
a child process of its own (:mod:`.layout_child`; a batch whose workers already fill the
CPUs turns that off). Their own module so that reading them imports nothing (neither the
XML-RPC machinery of :mod:`.pool_front` nor numpy)."""

from __future__ import annotations

__all__ = ["LAYOUT_PROCESSES_ENV", "POOL_ENV", "POOL_TOKEN_ENV", "batch_worker_env"]

POOL_ENV = "ARTIFACTCHECK_RENDER_POOL"
POOL_TOKEN_ENV = "ARTIFACTCHECK_RENDER_POOL_TOKEN"
LAYOUT_PROCESSES_ENV = "ARTIFACTCHECK_LAYOUT_PROCESSES"


def batch_worker_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """What a batch adds to its workers' environment: one process per layout read (the
    workers are the parallelism; a child each would only add its start-up), unless the
    user chose otherwise."""
    import os

    env = os.environ if environ is None else environ
    return {} if env.get(LAYOUT_PROCESSES_ENV) else {LAYOUT_PROCESSES_ENV: "1"}
