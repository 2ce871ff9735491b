"""Inter-annotator agreement on the double-annotated abstracts, with the shared scorer's matching.

For the ids annotated in both standoff files, one annotation is written as a gold file and the other
as a small graph in the public schema (papers with their abstract, typed entities with labels and
aliases, ``kg:proposes``, results), and the scorer given by path (``../shared/eval/score.py``) scores
one against the other, both ways. With no optional items the two directions swap precision and
recall; F1 is the agreement figure.

    python -m training.agreement --corpus ../shared/data/abstracts.jsonl.gz \
        --scorer ../shared/eval/score.py training/annotations/double/a.jsonl training/annotations/double/b.jsonl
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rdflib import RDF, RDFS, SKOS, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS

from kg.namespaces import KG
from kg.resolve.ids import entity_iri, paper_iri, result_iri
from training.corpus import CorpusError, as_gold, read_corpus, read_standoff

#: The scorer's figures reported, in this order.
ROWS = ("Method", "Dataset", "Modality", "Task", "Metric", "all_entities", "proposes", "results")
#: Entity list -> (type, the paper's property to it), as the graph builder links them.
_FIELDS = {"methods": ("Method", KG.usesMethod), "datasets": ("Dataset", KG.usesDataset),
           "tasks": ("Task", KG.addressesTask), "metrics": ("Metric", KG.usesMetric)}


def as_graph(entries: list[dict[str, Any]], texts: dict[str, str]) -> Graph:
    """The annotations of ``entries`` as a graph in the public schema (the scorer's 'prediction')."""
    g = Graph()
    for entry in entries:
        ann, text = entry["annotation"], texts[entry["id"]]
        paper = paper_iri(text)
        g.add((paper, RDF.type, KG.Paper))
        g.add((paper, DCTERMS.abstract, Literal(text)))
        g.add((paper, RDFS.label, Literal(ann.get("name") or entry["id"])))
        by_label: dict[str, URIRef] = {}

        def add(type_name: str, item: dict[str, Any]) -> URIRef:
            iri = entity_iri(type_name, item["label"])
            g.add((iri, RDF.type, KG[type_name]))
            g.add((iri, RDFS.label, Literal(item["label"])))
            for alias in item.get("aliases", []):
                g.add((iri, SKOS.altLabel, Literal(alias)))
            by_label[item["label"]] = iri
            return iri

        for item in ann.get("proposes", []):
            g.add((paper, KG.proposes, add(item["type"], item)))
        for field, (type_name, prop) in _FIELDS.items():
            for item in ann.get(field, []):
                g.add((paper, prop, add(type_name, item)))
        for term in ann.get("modalities", []):
            g.add((paper, KG.hasModality, add("Modality", {"label": term})))
        for index, res in enumerate(ann.get("results", [])):
            node = result_iri(paper, index)
            g.add((paper, KG.reportsResult, node))
            g.add((node, KG.value, Literal(res["value"])))
            if res.get("metric") in by_label:
                g.add((node, KG.metric, by_label[res["metric"]]))
            if res.get("dataset") in by_label:
                g.add((node, KG.dataset, by_label[res["dataset"]]))
    return g


def score(scorer: Path, gold: dict[str, Any], graph: Graph, ontology: list[Path],
          diff: bool = False) -> dict[str, Any]:
    """Run the shared scorer on ``gold`` against ``graph``; its JSON figures (and its diff lines)."""
    with tempfile.TemporaryDirectory() as tmp:
        gold_path, graph_path = Path(tmp, "gold.json"), Path(tmp, "pred.ttl")
        gold_path.write_text(json.dumps(gold), encoding="utf-8")
        graph.serialize(graph_path, format="turtle")
        done = subprocess.run([sys.executable, str(scorer), str(gold_path), str(graph_path),
                               *map(str, ontology), "--json", *(["--diff"] if diff else [])],
                              capture_output=True, text=True)
    if done.returncode != 0:
        raise CorpusError(f"{scorer} failed: {done.stderr.strip()[-500:]}")
    lines = done.stdout.strip().splitlines()
    figures = json.loads(lines[-1])
    figures["diff"] = [line for line in lines[:-1] if line.strip()]
    return figures


def agreement(a: list[dict[str, Any]], b: list[dict[str, Any]], texts: dict[str, str], scorer: Path,
              ontology: list[Path], diff: bool = False) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """Agreement of the ids in both ``a`` and ``b``: (count, figures with a as gold, with b as gold)."""
    both = sorted({e["id"] for e in a} & {e["id"] for e in b})
    pick = lambda entries: [e for e in sorted(entries, key=lambda e: e["id"]) if e["id"] in both]  # noqa: E731
    ea, eb = pick(a), pick(b)

    def with_text(entries: list[dict[str, Any]]) -> dict[str, Any]:
        gold = as_gold(entries)
        for pid, paper in gold["papers"].items():
            paper["abstract"] = texts[pid]
        return gold

    ab = score(scorer, with_text(ea), as_graph(eb, texts), ontology, diff)
    ba = score(scorer, with_text(eb), as_graph(ea, texts), ontology)
    ab["relations"], ba["relations"] = relation_agreement(ea, eb), relation_agreement(eb, ea)
    return len(both), ab, ba


def _norm(label: str) -> str:
    return " ".join(label.lower().replace("-", " ").split())


def relation_agreement(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement on relation facts: exact ``[subject, relation, object]`` triples (case, hyphens and
    spaces folded), with ``a`` as gold; over the ids in both."""
    rel = {e["id"]: {(_norm(s), r, _norm(o)) for s, r, o in e["annotation"].get("relations", [])} for e in a}
    other = {e["id"]: {(_norm(s), r, _norm(o)) for s, r, o in e["annotation"].get("relations", [])} for e in b}
    both = rel.keys() & other.keys()
    tp = sum(len(rel[i] & other[i]) for i in both)
    gold, pred = sum(len(rel[i]) for i in both), sum(len(other[i]) for i in both)
    p = tp / pred if pred else 1.0
    r = tp / gold if gold else 1.0
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
            "tp": tp, "fp": pred - tp, "fn": gold - tp}


def table(n: int, ab: dict[str, Any], ba: dict[str, Any]) -> str:
    """A Markdown table of the agreement figures."""
    lines = [f"{n} abstracts annotated twice, independently.", "",
             "| type | F1 (A as gold) | F1 (B as gold) | P / R (A as gold) | items A / B |",
             "|---|---|---|---|---|"]
    for row in ROWS:
        x, y = ab[row], ba[row]
        lines.append(f"| {row} | {x['f1']:.3f} | {y['f1']:.3f} | {x['precision']:.3f} / {x['recall']:.3f} "
                     f"| {x['tp'] + x['fn']} / {y['tp'] + y['fn']} |")
    if "relations" in ab:
        x, y = ab["relations"], ba["relations"]
        lines.append(f"| relation facts | {x['f1']:.3f} | {y['f1']:.3f} | {x['precision']:.3f} / {x['recall']:.3f} "
                     f"| {x['tp'] + x['fn']} / {y['tp'] + y['fn']} |")
    lines.append(f"| name accuracy | {ab['name_accuracy']} | {ba['name_accuracy']} | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.agreement", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="standoff annotations of the first annotator")
    parser.add_argument("b", type=Path, help="standoff annotations of the second annotator")
    parser.add_argument("--corpus", type=Path, required=True, help="the corpus JSONL(.gz) holding the texts")
    parser.add_argument("--scorer", type=Path, required=True, help="the shared scorer, score.py")
    parser.add_argument("--ontology", type=Path, nargs="*", default=sorted(Path("ontology").glob("*.ttl")))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--diff", action="store_true",
                        help="also list, per paper, what A has and B lacks (missed) and the reverse (extra)")
    args = parser.parse_args(argv)
    try:
        a = [e for _, _, e in read_standoff([args.a])]
        b = [e for _, _, e in read_standoff([args.b])]
        corpus = read_corpus(args.corpus, {e["id"] for e in a} | {e["id"] for e in b})
        texts = {rid: rec["abstract"] for rid, rec in corpus.items()}
        n, ab, ba = agreement(a, b, texts, args.scorer, args.ontology, args.diff)
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.diff:
        print("\n".join(ab["diff"]) + "\n")
    print(json.dumps({"n": n, "a_as_gold": ab, "b_as_gold": ba}) if args.json else table(n, ab, ba))
    return 0


if __name__ == "__main__":
    sys.exit(main())
