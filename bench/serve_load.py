"""Bounded load test of ``kg serve``: N queries, C in flight, from an async httpx client over loopback.

Starts ``kg serve`` on a free loopback port (or uses ``--url``, which must be a loopback address),
sends ``--queries`` SPARQL queries drawn round-robin from a workload whose answers are computed
locally on the same graph, checks every answer, and prints throughput and p50/p95/p99 latency. Exits 1
if any query fails or answers wrongly. It stops by itself: the number of queries is fixed.

    .venv/bin/kg build seeds/ -o /tmp/seeds-out --no-views
    .venv/bin/python bench/serve_load.py --graph /tmp/seeds-out/kg.ttl --queries 2000 --concurrency 50
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_helpers import running_server  # noqa: E402  (the same server start-up the tests use)


Answer = tuple[tuple[str, ...], ...]


@dataclass
class LoadResult:
    """What a load run measured."""

    queries: int
    concurrency: int
    seconds: float
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wrong: int = 0

    @property
    def throughput(self) -> float:
        return self.queries / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        """Latency percentile ``p`` (0-100) in milliseconds."""
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
        return ordered[index] * 1000

    def summary(self) -> str:
        return (f"{self.queries} queries, {self.concurrency} in flight: {self.seconds:.2f} s, "
                f"{self.throughput:.0f} queries/s; latency p50 {self.percentile(50):.1f} ms, "
                f"p95 {self.percentile(95):.1f} ms, p99 {self.percentile(99):.1f} ms, "
                f"max {max(self.latencies, default=0) * 1000:.1f} ms; "
                f"{len(self.errors)} errors, {self.wrong} wrong answers")


def canonical_json(data: dict) -> Answer:
    """A SPARQL JSON result as a sorted tuple of rows (values only), comparable across engines."""
    if "boolean" in data:
        return ((str(data["boolean"]).lower(),),)
    names = data["head"]["vars"]
    return tuple(sorted(tuple(b.get(n, {}).get("value", "") for n in names) for b in data["results"]["bindings"]))


def workload(graph_path: Path, size: int = 40) -> list[tuple[str, Answer]]:
    """Queries over ``graph_path`` with their expected answers (run locally through kg.query)."""
    from kg.query import run_query
    from kg.results import to_json
    from kg.store import load_graph

    graph = load_graph(graph_path)
    fixed = [
        "SELECT ?type (COUNT(?s) AS ?n) WHERE { ?s a ?type } GROUP BY ?type",
        "SELECT ?p ?label WHERE { ?p a kg:Paper ; rdfs:label ?label }",
        "SELECT ?m (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p kg:usesMethod ?m } GROUP BY ?m ORDER BY DESC(?n) LIMIT 10",
        "ASK { ?p a kg:Paper }",
    ]
    entities = run_query(graph, "SELECT DISTINCT ?e WHERE { ?p kg:usesMethod|kg:usesDataset|kg:addressesTask ?e } "
                                "ORDER BY ?e LIMIT %d" % size).rows
    per_entity = [f"SELECT ?p ?label WHERE {{ ?p ?link <{e}> ; a kg:Paper ; rdfs:label ?label }}" for (e,) in entities]
    return [(q, canonical_json(to_json(run_query(graph, q)))) for q in fixed + per_entity]


async def run_load(base_url: str, queries: list[tuple[str, Answer]] | None, total: int, concurrency: int) -> LoadResult:
    """Send ``total`` queries (round-robin over ``queries``) with ``concurrency`` in flight; check each answer.

    With ``queries`` None it sends GET /health instead: the reference (HTTP stack and client alone)."""
    host = urlparse(base_url).hostname or ""
    if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
        raise SystemExit(f"refusing to load-test {base_url}: loopback addresses only")
    result = LoadResult(queries=total, concurrency=concurrency, seconds=0.0)
    counter = iter(range(total))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"Accept": "application/sparql-results+json"}
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60.0, headers=headers) as client:

        async def worker() -> None:
            for i in counter:
                started = time.perf_counter()
                if queries is None:
                    answer = await client.get("/health")
                    result.latencies.append(time.perf_counter() - started)
                    if answer.status_code != 200:
                        result.errors.append(f"{answer.status_code}: {answer.text[:200]}")
                    continue
                text, expected = queries[i % len(queries)]
                try:
                    answer = await client.post("/sparql", data={"query": text})
                except httpx.HTTPError as exc:
                    result.errors.append(f"{type(exc).__name__}: {exc}")
                    continue
                result.latencies.append(time.perf_counter() - started)
                if answer.status_code != 200:
                    result.errors.append(f"{answer.status_code}: {answer.text[:200]}")
                elif canonical_json(answer.json()) != expected:
                    result.wrong += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        result.seconds = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", type=Path, default=Path("output/kg.ttl"), help="graph to serve and check against")
    parser.add_argument("--url", default=None, help="an already running loopback server (default: start one)")
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--isolate", action="store_true", help="serve with --isolate (a fork per query)")
    args = parser.parse_args(argv)
    queries = workload(args.graph)
    print(f"workload: {len(queries)} distinct queries over {args.graph}", flush=True)
    with contextlib.ExitStack() as stack:
        url = args.url or stack.enter_context(running_server(args.graph, *(["--isolate"] if args.isolate else []),
                                                                    ready_timeout=120))
        result = asyncio.run(run_load(url, queries, args.queries, args.concurrency))
        health = httpx.get(url + "/health", timeout=5).json()
        reference = asyncio.run(run_load(url, None, args.queries, args.concurrency))
    print("queries:  ", result.summary())
    print("reference:", reference.summary().replace("queries,", "GET /health,"))
    print(f"throughput ratio queries / reference: {result.throughput / reference.throughput:.2f}")
    print(f"health after the run: {health}")
    for error in result.errors[:5]:
        print("  error:", error)
    return 0 if not result.errors and not result.wrong and health["status"] == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
