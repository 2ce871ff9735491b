"""Bounded load test of ``kg serve``: N queries, C in flight, from an async httpx client over loopback.

Starts ``kg serve`` on a free loopback port (or uses ``--url``, which must be a loopback address),
sends ``--queries`` SPARQL queries drawn round-robin from a workload whose answers are computed
locally on the same graph, checks every answer, and prints throughput and p50/p95/p99 latency. Exits 1
if any query fails or answers wrongly. It stops by itself: the number of queries is fixed.

    .venv/bin/kg build seeds/ -o /tmp/seeds-out --no-views
    .venv/bin/python bench/serve_load.py --graph /tmp/seeds-out/kg.ttl --queries 2000 --concurrency 50

``--vs-oxigraph`` instead runs ``kg serve`` and ``oxigraph serve-read-only`` (the ``oxigraph`` package's
server, on a store loaded from the same graph) side by side, with ``hey`` (Debian's ``hey`` package) as
the load generator: for each query, ``--rounds`` alternating runs of ``hey -n N -c C`` against each
server, then the median throughput and p95 of each and the ratio kg / oxigraph (the target is >= 0.5)::

    .venv/bin/python bench/serve_load.py --graph /tmp/b3k/kg.ttl --vs-oxigraph --rounds 3
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
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
    """Queries over ``graph_path`` with their expected answers (run locally through kg.sparql.run)."""
    from kg.sparql.formats import to_json
    from kg.sparql.run import run_query
    from kg.store.load import load_graph

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


#: The two queries of the side-by-side run: a label look-up and a top-10 aggregate.
SIDE_BY_SIDE = {
    "label look-up (papers on ImageNet)":
        "PREFIX kg: <https://w3id.org/paperkg/ontology#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
        "SELECT ?paper ?title WHERE { ?d rdfs:label \"ImageNet\" . ?paper kg:usesDataset ?d ; rdfs:label ?title }",
    "top-10 aggregate (most used methods)":
        "PREFIX kg: <https://w3id.org/paperkg/ontology#> "
        "SELECT ?m (COUNT(?p) AS ?n) WHERE { ?p kg:usesMethod ?m } GROUP BY ?m ORDER BY DESC(?n) ?m LIMIT 10",
}


@dataclass
class HeyRun:
    """One ``hey`` run: throughput, p95 and the status codes it saw."""

    throughput: float
    p95_ms: float
    statuses: dict[str, int]


def hey(url: str, query: str, total: int, concurrency: int) -> HeyRun:
    """POST ``query`` (form-encoded) ``total`` times with ``concurrency`` in flight, through ``hey``."""
    from urllib.parse import urlencode
    out = subprocess.run(["hey", "-n", str(total), "-c", str(concurrency), "-m", "POST",
                          "-T", "application/x-www-form-urlencoded",
                          "-H", "Accept: application/sparql-results+json",
                          "-d", urlencode({"query": query}), url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p95 = float(re.search(r"95%+ in ([\d.]+) secs", out).group(1)) * 1000
    statuses = dict(re.findall(r"\[(\d{3})\]\s+(\d+) responses", out))
    return HeyRun(rate, p95, {k: int(v) for k, v in statuses.items()})


@contextlib.contextmanager
def running_oxigraph(graph: Path) -> "contextlib.AbstractContextManager[str]":
    """``oxigraph serve-read-only`` on a store loaded from ``graph``; yields its query URL."""
    binary = shutil.which("oxigraph", path=str(Path(sys.executable).parent)) or shutil.which("oxigraph")
    if binary is None:
        raise SystemExit("no `oxigraph` command: pip install oxigraph (the test extra has it)")
    with tempfile.TemporaryDirectory() as location:
        subprocess.run([binary, "load", "--location", location, "--file", str(graph)], check=True,
                       capture_output=True)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        proc = subprocess.Popen([binary, "serve-read-only", "--location", location, "--bind", f"127.0.0.1:{port}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    httpx.get(f"http://127.0.0.1:{port}/query", params={"query": "ASK {}"}, timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            yield f"http://127.0.0.1:{port}/query"
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def side_by_side(graph: Path, total: int, concurrency: int, rounds: int) -> int:
    """Alternate ``hey`` runs against ``kg serve`` and ``oxigraph serve-read-only``; print medians and ratios."""
    if shutil.which("hey") is None:
        raise SystemExit("no `hey` command: apt install hey (the load generator of this bench)")
    failed = False
    with running_server(graph, ready_timeout=300) as kg_url, running_oxigraph(graph) as ox_url:
        servers = {"kg serve": kg_url + "/sparql", "oxigraph serve-read-only": ox_url}
        for name, query in SIDE_BY_SIDE.items():
            answers = {s: canonical_json(httpx.post(u, data={"query": query}, timeout=60,
                                                    headers={"Accept": "application/sparql-results+json"}).json())
                       for s, u in servers.items()}
            if len(set(answers.values())) != 1:
                print(f"{name}: the two servers answer differently")
                failed = True
            runs: dict[str, list[HeyRun]] = {s: [] for s in servers}
            for _ in range(rounds):
                for server, url in servers.items():
                    run = hey(url, query, total, concurrency)
                    failed |= set(run.statuses) != {"200"}
                    runs[server].append(run)
            print(f"{name} ({len(answers['kg serve'])} rows), {rounds} alternating rounds of "
                  f"hey -n {total} -c {concurrency}:")
            medians = {}
            for server, results in runs.items():
                rates = [r.throughput for r in results]
                medians[server] = statistics.median(rates)
                print(f"  {server:26s} median {medians[server]:7.0f} q/s (runs {', '.join(f'{r:.0f}' for r in rates)}), "
                      f"p95 median {statistics.median(r.p95_ms for r in results):.1f} ms")
            print(f"  ratio kg / oxigraph: {medians['kg serve'] / medians['oxigraph serve-read-only']:.2f}x")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", type=Path, default=Path("output/kg.ttl"), help="graph to serve and check against")
    parser.add_argument("--url", default=None, help="an already running loopback server (default: start one)")
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--vs-oxigraph", action="store_true",
                        help="run kg serve and oxigraph serve-read-only side by side with hey")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per server (--vs-oxigraph)")
    args = parser.parse_args(argv)
    if args.vs_oxigraph:
        return side_by_side(args.graph, args.queries, args.concurrency, args.rounds)
    queries = workload(args.graph)
    print(f"workload: {len(queries)} distinct queries over {args.graph}", flush=True)
    with contextlib.ExitStack() as stack:
        url = args.url or stack.enter_context(running_server(args.graph, ready_timeout=120))
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
