#!/usr/bin/env python
"""Benchmark the saved queries on the Oxigraph-backed store against rdflib's in-memory store.

Runs every saved query (parameters chosen from the graph) on both engines in the same run and prints
per-query medians, the rdflib/Oxigraph ratio, the median speed-up and the p95 latency of the saved
queries on Oxigraph (without a time limit, and with the timeout thread ``kg query`` uses). The latencies
are measured first, before the rdflib copy exists, after ``--warmup`` untimed runs of each query; the
ratio divides rdflib's median by that of Oxigraph timed again just before rdflib runs the same query
("paired"), so both meet the same load. Each time is
that of a :func:`kg.run_query` call as a user makes it: parsing, evaluation and the result rows turned
into rdflib terms. Both engines are called from the main thread; ``run_query`` itself moves an Oxigraph
query to its query thread (see :mod:`kg.sparql.run`), while rdflib's pure-Python evaluation stays where it is
called (run on a thread it was no faster: 54 -> 63 ms, 88 -> 82 ms, 109 -> 115 ms on a 2k-paper graph).

rdflib can be very slow on a large graph: each rdflib run is stopped after ``--rdflib-timeout`` seconds
(an alarm signal interrupts rdflib's pure-Python evaluation in this process), and such a query is
reported as "> N s" with its ratio as a lower bound (">="); a median speed-up computed with any lower
bound is itself a lower bound and printed as such. ``--no-rdflib`` measures Oxigraph alone.

    python bench/query_bench.py --graph output/kg.ttl
    python bench/query_bench.py --graph big/kg.ttl --rdflib-timeout 60   # the 30k-paper graph
    python bench/query_bench.py --graph big/store --no-rdflib            # Oxigraph's on-disk store only
    python bench/query_bench.py --build ../shared/data/abstracts.jsonl.gz --output bench/out
    python bench/query_bench.py --synthetic 30000          # a schema-shaped random graph

One run's median speed-up falls between the aggregates (10-40x) and the look-ups (50-7,000x), so it
moves with noise. Save several runs with ``--json`` and combine them: each query's median ratio over
the runs, then the median over queries, is the steadier figure.

    for i in 1 2 3 4 5; do python bench/query_bench.py --graph big/kg.ttl --json runs/$i.json; done
    python bench/query_bench.py --combine runs/*.json
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rdflib import Graph, Literal  # noqa: E402

from kg.namespaces import DCTERMS, ID, KG, PROV, RDF, RDFS, SKOS, XSD  # noqa: E402
from kg.sparql.run import run_query  # noqa: E402
from kg.sparql.saved import list_saved  # noqa: E402
from kg.store.load import load_graph  # noqa: E402
from kg.store.local import add_triples, new_graph, store_path, to_memory  # noqa: E402


# --------------------------------------------------------------------------- graphs


def synthetic_graph(papers: int, seed: int = 1) -> Graph:
    """A random graph shaped like a built one: Zipf-distributed entities, mentions, sentences, results."""
    rng = random.Random(seed)
    kinds = {"method": (KG.Method, KG.usesMethod, 4000), "dataset": (KG.Dataset, KG.usesDataset, 1500),
             "modality": (KG.Modality, KG.hasModality, 40), "task": (KG.Task, KG.addressesTask, 600),
             "metric": (KG.Metric, KG.usesMetric, 120)}
    weights = {k: [1 / (i + 1) for i in range(n)] for k, (_, _, n) in kinds.items()}
    triples = []
    add = triples.append
    for kind, (cls, _, n) in kinds.items():
        for i in range(n):
            e = ID[f"{kind}/{kind}-{i}"]
            add((e, RDF.type, cls))
            add((e, RDFS.label, Literal(f"{kind} {i}")))
            add((e, SKOS.prefLabel, Literal(f"{kind} {i}")))
            for a in range(rng.randrange(3)):
                add((e, SKOS.altLabel, Literal(f"{kind.upper()}-{i}-{a}")))
            if kind == "modality":
                add((e, SKOS.inScheme, ID["scheme/modalities"]))
    extractor = ID["extractor/dictionary"]
    add((extractor, RDF.type, KG.Extractor))
    venues = ["NeurIPS", "ICML", "ICLR", "CVPR", "ACL", "EMNLP", "AAAI", "IJCAI", "KDD", "MICCAI"]
    for p in range(papers):
        paper = ID[f"paper/{p:016x}"]
        add((paper, RDF.type, KG.Paper))
        add((paper, RDFS.label, Literal(f"Paper {p}")))
        add((paper, DCTERMS.abstract, Literal(" ".join(f"word{rng.randrange(5000)}" for _ in range(150)))))
        add((paper, KG.year, Literal(str(rng.randrange(2010, 2025)), datatype=XSD.gYear)))
        add((paper, KG.venue, Literal(rng.choice(venues))))
        source = ID[f"source/{p:016x}"]
        add((paper, PROV.wasDerivedFrom, source))
        add((source, RDF.type, KG.SourceRecord))
        add((source, KG.position, Literal(p)))
        if rng.random() < 0.3:
            add((paper, KG.codeRepository, ID[f"code/{p}"]))
        sentences = []
        for s in range(6):
            sentence = ID[f"paper/{p:016x}/s{s}"]
            sentences.append(sentence)
            add((sentence, RDF.type, KG.Sentence))
            add((sentence, KG.text, Literal(f"Sentence {s} of paper {p}.")))
            add((sentence, KG.start, Literal(s * 150)))
            add((sentence, KG.end, Literal(s * 150 + 149)))
            add((sentence, DCTERMS.isPartOf, paper))
        for kind, (_, prop, n) in kinds.items():
            count = {"method": 4, "dataset": 2, "modality": 1, "task": 2, "metric": 2}[kind]
            for i in set(rng.choices(range(n), weights[kind], k=count)):
                e = ID[f"{kind}/{kind}-{i}"]
                add((paper, prop, e))
                start = rng.randrange(0, 880)
                mention = ID[f"paper/{p:016x}/m{start}-{start + 8}-{kind}"]
                add((mention, RDF.type, KG.Mention))
                add((mention, KG.paper, paper))
                add((mention, KG.entity, e))
                add((mention, KG.property, prop))
                add((mention, KG.anchorText, Literal(f"{kind} {i}")))
                add((mention, KG.start, Literal(start)))
                add((mention, KG.end, Literal(start + 8)))
                add((mention, KG.inSentence, sentences[start // 150]))
                add((mention, PROV.wasAttributedTo, extractor))
        if rng.random() < 0.2:
            add((paper, KG.proposes, ID[f"method/method-{rng.randrange(4000)}"]))
        if rng.random() < 0.3:
            result = ID[f"paper/{p:016x}/r0"]
            add((paper, KG.reportsResult, result))
            add((result, RDF.type, KG.Result))
            add((result, KG.metric, ID[f"metric/metric-{rng.choices(range(120), weights['metric'])[0]}"]))
            add((result, KG.dataset, ID[f"dataset/dataset-{rng.choices(range(1500), weights['dataset'])[0]}"]))
            value = round(rng.uniform(50, 99), 1)
            add((result, KG.value, Literal(f"{value}%")))
            add((result, KG.numericValue, Literal(str(value), datatype=XSD.decimal)))
    graph = new_graph()
    add_triples(graph, triples)
    return graph


def _first(graph: Graph, query: str) -> str:
    rows = run_query(graph, query, timeout=None).rows
    if not rows or rows[0][0] is None:
        raise SystemExit(f"the graph has nothing to choose a parameter from:\n{query}")
    return str(rows[0][0])


def choose_params(graph: Graph) -> dict[str, dict[str, str]]:
    """Sensible parameter values for the saved queries, chosen from the graph itself."""
    top = "SELECT ?x (COUNT(*) AS ?n) WHERE {{ ?p {prop} ?x }} GROUP BY ?x ORDER BY DESC(?n) ?x LIMIT 1"
    method = _first(graph, top.format(prop="kg:usesMethod"))
    method_label = _first(graph, f"SELECT ?l WHERE {{ <{method}> rdfs:label ?l }}")
    task = _first(graph, top.format(prop="kg:addressesTask"))
    task_label = _first(graph, f"SELECT ?l WHERE {{ <{task}> rdfs:label ?l }}")
    dataset = _first(graph, "SELECT ?d (COUNT(*) AS ?n) WHERE { ?r kg:dataset ?d } GROUP BY ?d ORDER BY DESC(?n) ?d LIMIT 1")
    alias = _first(graph, "SELECT ?a WHERE { ?e skos:altLabel ?a ; a kg:Method } ORDER BY ?a LIMIT 1")
    paper = _first(graph, "SELECT ?p (COUNT(*) AS ?n) WHERE { ?p kg:usesMethod|kg:usesDataset ?e } "
                          "GROUP BY ?p ORDER BY DESC(?n) ?p LIMIT 1")
    mention = run_query(graph, "SELECT ?p ?e WHERE { ?m a kg:Mention ; kg:paper ?p ; kg:entity ?e } LIMIT 1",
                        timeout=None).rows[0]
    proposer = _first(graph, "SELECT ?l WHERE { ?p kg:proposes ?x ; rdfs:label ?l } ORDER BY ?l LIMIT 1")
    chosen = {
        "papers-using": {"entity": method_label},  # by label, as a user types it
        "entity-aliases": {"entity": alias},
        "link-provenance": {"paper": str(mention[0]), "entity": str(mention[1])},
        "paper-proposes": {"paper": proposer},
        "similar-papers": {"paper": paper},
        "methods-for-task": {"entity": task_label},
        "results-on-dataset": {"entity": dataset},
    }
    by_name = {"entity": method_label, "paper": paper}  # any other saved query's parameters
    return {s.name: chosen.get(s.name, {p: by_name.get(p, method_label) for p in s.params}) for s in list_saved()}


# --------------------------------------------------------------------------- timing


def timed(func: Callable[[], object], repeat: int, budget: float) -> tuple[list[float], object]:
    """Run ``func`` up to ``repeat`` times (fewer once ``budget`` seconds are spent); the latencies and last value."""
    times, value, spent = [], None, 0.0
    for _ in range(repeat):
        started = time.perf_counter()
        value = func()
        elapsed = time.perf_counter() - started
        times.append(elapsed)
        spent += elapsed
        if spent > budget:
            break
    return times, value


class RdflibTimeout(BaseException):
    """Raised by the alarm inside an rdflib query that ran out of time (a BaseException, so that no
    ``except Exception`` on the way out of rdflib or run_query swallows it)."""


def _alarm(signum: int, frame: object) -> None:
    raise RdflibTimeout()


def timed_with_limit(func: Callable[[], object], repeat: int, budget: float,
                     limit: float) -> tuple[list[float], object, bool]:
    """Like :func:`timed`, but a run still going after ``limit`` seconds is interrupted (SIGALRM, main thread).

    Returns the latencies, the last value (None if the first run was interrupted) and whether a run was
    interrupted, in which case the last latency is the limit: a lower bound of that run's time.
    """
    times: list[float] = []
    value: object = None
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, limit)
            try:
                value = func()
            except RdflibTimeout:
                times.append(limit)
                return times, value, True
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            times.append(time.perf_counter() - started)
            if sum(times) > budget:
                break
    finally:
        signal.signal(signal.SIGALRM, previous)
    return times, value, False


def load_note() -> str:
    """The 1, 5 and 15 minute load averages (the machine may be shared), as `uptime` prints them."""
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return ", ".join(f"{v:.2f}" for v in os.getloadavg())


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def combine(paths: list[Path]) -> int:
    """Print each query's median ratio over the runs saved in ``paths`` and the median over queries."""
    runs = [json.loads(path.read_text(encoding="utf-8")) for path in paths]
    per_query: dict[str, list[tuple[float, bool]]] = {}
    for run in runs:
        for row in run["queries"]:
            if row.get("ratio") is not None:
                per_query.setdefault(row["query"], []).append((row["ratio"], row["ratio_is_lower_bound"]))
    if not per_query:
        print("no ratios in these runs (were they made with --no-rdflib?)", file=sys.stderr)
        return 1
    print(f"{'query':<22} {'runs':>4} {'median ratio':>13} {'range':>16}")
    medians, bounded = [], False
    for name, ratios in sorted(per_query.items(), key=lambda item: statistics.median(r for r, _ in item[1])):
        values = [r for r, _ in ratios]
        lower = any(stopped for _, stopped in ratios)  # a stopped rdflib run makes the ratio a lower bound
        bounded |= lower
        medians.append(statistics.median(values))
        print(f"{name:<22} {len(values):>4} {('>=' if lower else '') + f'{medians[-1]:.1f}x':>13} "
              f"{f'{min(values):.1f}-{max(values):.1f}x':>16}")
    per_run = ", ".join(f"{run['median_speedup']:.1f}x" for run in runs if run.get("median_speedup"))
    print(f"median speed-up of each run: {per_run}")
    print(f"median over queries of each query's median ratio: {'>= ' if bounded else ''}"
          f"{statistics.median(medians):.1f}x ({len(runs)} runs)")
    print("p95 of each run: " + ", ".join(f"{run['p95_ms']:.0f}/{run['p95_worker_ms']:.0f} ms" for run in runs)
          + " (direct/kg query)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--graph", type=Path, help="a built graph: RDF file (e.g. output/kg.ttl) or store directory")
    source.add_argument("--build", type=Path, help="build the graph of this corpus first (kg build), then benchmark")
    source.add_argument("--synthetic", type=int, metavar="PAPERS", help="benchmark a random schema-shaped graph")
    source.add_argument("--combine", type=Path, nargs="+", metavar="JSON",
                        help="combine runs saved with --json: per-query median ratios and their median")
    parser.add_argument("--output", type=Path, default=Path("bench/out"), help="where --build writes (bench/out)")
    parser.add_argument("--repeat", type=int, default=7, help="runs per query on Oxigraph (median taken)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed Oxigraph runs of each query before its timed ones (the first query after "
                             "loading pays for touching the store's memory: 175 against 65 ms for compares-with)")
    parser.add_argument("--rdflib-repeat", type=int, default=3, help="runs per query on rdflib")
    parser.add_argument("--rdflib-budget", type=float, default=60.0,
                        help="stop repeating a query on rdflib once this many seconds are spent on it")
    parser.add_argument("--rdflib-timeout", type=float, default=120.0,
                        help="interrupt an rdflib run after this many seconds and count it as a lower bound")
    parser.add_argument("--no-rdflib", action="store_true", help="measure Oxigraph only (no rdflib copy)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="benchmark these saved queries only")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    if args.combine:
        return combine(args.combine)

    started = time.perf_counter()
    if args.graph:
        graph = load_graph(args.graph)
        origin = str(args.graph)
    elif args.build:
        from kg.build.pipeline import build

        summary = build([args.build], args.output)
        graph = load_graph(Path(args.output) / "kg.ttl")
        origin = f"kg build {args.build} ({summary.papers} papers)"
    else:
        graph = synthetic_graph(args.synthetic)
        origin = f"synthetic graph of {args.synthetic} papers"
    load_seconds = time.perf_counter() - started
    papers = int(run_query(graph, "SELECT (COUNT(*) AS ?n) WHERE { ?p a kg:Paper }", timeout=None).rows[0][0])
    engine = "Oxigraph on-disk store" if store_path(graph) is not None else "Oxigraph in memory"
    print(f"graph: {origin}: {len(graph):,} triples, {papers:,} papers (loaded in {load_seconds:.1f} s; {engine})")
    print(f"load average at start: {load_note()}")
    params = choose_params(graph)
    saved_queries = [s for s in list_saved() if not args.only or s.name in args.only]
    # Oxigraph first (directly, and with the timeout `kg query` uses), before the rdflib copy
    # makes the process large.
    ox_runs: dict[str, tuple[list[float], list[float], object]] = {}
    for saved in saved_queries:
        p = params.get(saved.name, {})
        for _ in range(args.warmup):
            run_query(graph, saved.name, p, timeout=None)
        ox_times, ox_result = timed(lambda: run_query(graph, saved.name, p, timeout=None), args.repeat, 1e9)
        worker_times, _ = timed(lambda: run_query(graph, saved.name, p, timeout=60), args.repeat, 1e9)
        ox_runs[saved.name] = (ox_times, worker_times, ox_result)
    memory = None
    if not args.no_rdflib:
        started = time.perf_counter()
        memory = to_memory(graph)
        print(f"rdflib in-memory copy made in {time.perf_counter() - started:.1f} s")

    rows, ox_all, worker_all, ratios, bounded = [], [], [], [], False
    header = (f"{'query':<22} {'rows':>6} {'oxigraph ms':>12} {'p95 ms':>8} {'timed ms':>10} "
              f"{'paired ms':>10} {'rdflib ms':>11} {'ratio':>9}")
    print(header)
    print("-" * len(header))
    for saved in saved_queries:
        p = params.get(saved.name, {})
        ox_times, worker_times, ox_result = ox_runs[saved.name]
        ox_ms, ox_p95_ms, worker_ms = (statistics.median(ox_times) * 1000, p95(ox_times) * 1000,
                                       statistics.median(worker_times) * 1000)
        ox_all += ox_times
        worker_all += worker_times
        row = {"query": saved.name, "params": p, "rows": len(ox_result.rows), "oxigraph_ms": ox_ms,
               "oxigraph_p95_ms": ox_p95_ms, "worker_ms": worker_ms}
        rd_text, ratio_text, note, paired_text = "", "", "", ""
        if memory is not None:
            # Oxigraph again, right before rdflib runs the same query: the two engines of a ratio meet the
            # same load from other jobs on the machine (the first Oxigraph runs are minutes earlier).
            paired_times, _ = timed(lambda: run_query(graph, saved.name, p, timeout=None), args.repeat, 1e9)
            paired_ms = statistics.median(paired_times) * 1000
            paired_text = f"{paired_ms:.1f}"
            rd_times, rd_result, stopped = timed_with_limit(
                lambda: run_query(memory, saved.name, p, timeout=None),
                args.rdflib_repeat, args.rdflib_budget, args.rdflib_timeout)
            if stopped:  # the interrupted run is a lower bound: so is any median it takes part in
                rd_ms = max(rd_times) * 1000
                rd_text, bounded = f"> {rd_ms:,.0f}", True
            else:
                rd_ms = statistics.median(rd_times) * 1000
                rd_text = f"{rd_ms:.1f}"
            ratio = rd_ms / paired_ms if paired_ms else float("inf")
            ratios.append(ratio)
            ratio_text = f"{'>=' if stopped else ''}{ratio:.1f}x"
            same = stopped or len(ox_result.rows) == len(rd_result.rows)
            note = "" if same else "  (row counts differ!)"
            row.update({"oxigraph_paired_ms": paired_ms, "rdflib_ms": rd_ms, "rdflib_stopped": stopped, "ratio": ratio,
                        "ratio_is_lower_bound": stopped, "same_row_count": None if stopped else same})
        print(f"{saved.name:<22} {len(ox_result.rows):>6} {ox_ms:>12.1f} {ox_p95_ms:>8.1f} {worker_ms:>10.1f} "
              f"{paired_text:>10} {rd_text:>11} {ratio_text:>9}{note}", flush=True)
        rows.append(row)
    summary = {
        "graph": origin, "engine": engine, "triples": len(graph), "papers": papers,
        "median_speedup": statistics.median(ratios) if ratios else None,
        "median_speedup_is_lower_bound": bounded,
        "rdflib_timeout_s": None if memory is None else args.rdflib_timeout,
        "p95_ms": p95(ox_all) * 1000, "p95_worker_ms": p95(worker_all) * 1000,
        "load_average_end": load_note(), "queries": rows,
    }
    print("-" * len(header))
    if ratios:
        bound = (" (a lower bound: some rdflib runs were stopped at "
                 f"{args.rdflib_timeout:g} s)") if bounded else ""
        print(f"median speed-up (rdflib / Oxigraph): {'>= ' if bounded else ''}"
              f"{summary['median_speedup']:.1f}x{bound}")
    print(f"p95 latency of the saved queries on Oxigraph: {summary['p95_ms']:.1f} ms direct, "
          f"{summary['p95_worker_ms']:.1f} ms with the timeout thread (kg query)")
    print(f"load average at end: {summary['load_average_end']}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
