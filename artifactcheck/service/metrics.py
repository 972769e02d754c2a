"""``/metrics``: Prometheus text from a registry of the app's own (never the global one,
so two apps in one process, as in tests, do not collide).

Counted: requests by endpoint and status, latency by endpoint, errors by type, requests
being answered now by endpoint; read at
scrape time: render-cache hits and misses, and the warm pool's conversions, cold
fallbacks, crashes, timeouts, restarts, processes and busy processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ..extractors.render.cache import render_cache_stats

__all__ = ["ServiceMetrics"]

_LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)


class _RenderCollector(Collector):
    def __init__(self, pool_state: Callable[[], dict[str, Any] | None]) -> None:
        self.pool_state = pool_state

    def collect(self) -> Iterator[Metric]:
        cache = render_cache_stats()
        hits = CounterMetricFamily("artifactcheck_render_cache_lookups", "Render-cache lookups by result", labels=["result"])
        hits.add_metric(["hit"], cache["hits"])
        hits.add_metric(["miss"], cache["misses"])
        yield hits
        state = self.pool_state()
        if state is None:
            return
        for key, doc in (("conversions", "PDFs made by the warm pool"), ("fallbacks", "Warm conversions redone cold"),
                         ("crashes", "LibreOffice crashes in the pool"), ("timeouts", "Pool conversions past their timeout"),
                         ("restarts", "Pool processes replaced")):
            yield CounterMetricFamily(f"artifactcheck_renderer_{key}", doc, value=state.get(key, 0))
        for key, doc in (("processes", "Running pool processes"), ("busy", "Pool processes converting now"), ("size", "Pool size")):
            yield GaugeMetricFamily(f"artifactcheck_renderer_{key}", doc, value=state.get(key, 0))


class ServiceMetrics:
    def __init__(self, pool_state: Callable[[], dict[str, Any] | None]) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("artifactcheck_requests", "HTTP requests", ["endpoint", "status"], registry=self.registry)
        self.latency = Histogram("artifactcheck_request_seconds", "Request latency", ["endpoint"],
                                 buckets=_LATENCY_BUCKETS, registry=self.registry)
        self.errors = Counter("artifactcheck_errors", "Error answers by type", ["type"], registry=self.registry)
        self.in_flight = Gauge("artifactcheck_requests_in_flight", "Requests being answered now", ["endpoint"],
                               registry=self.registry)
        self.registry.register(_RenderCollector(pool_state))

    def render(self) -> bytes:
        return generate_latest(self.registry)
