"""The environment variables that announce a shared render pool to a worker process
(set by the pool's owner, read by :mod:`.selection`). Their own module so that reading
them does not import the XML-RPC machinery of :mod:`.pool_front`."""

from __future__ import annotations

__all__ = ["POOL_ENV", "POOL_TOKEN_ENV"]

POOL_ENV = "ARTIFACTCHECK_RENDER_POOL"
POOL_TOKEN_ENV = "ARTIFACTCHECK_RENDER_POOL_TOKEN"
