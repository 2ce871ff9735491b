"""Per-paper fragments: a rebuild reuses each paper's statements only while they are still what a fresh
build would write, so a cached rebuild is byte-identical to a cold one."""
from __future__ import annotations

import json
from pathlib import Path

from rdflib import Literal, URIRef

from kg.build.pipeline import build
from kg.ingest import Record, SourceRef
from kg.ingest.corpus import Paper
from kg.namespaces import KG
from kg.rdf.evidence import EntityIndex
from kg.rdf.fragments import paper_digest, replays
from kg.resolve.entities import Entity, Resolution
from kg.resolve.ids import paper_iri
from kg.store.load import load_graph
from kg.store.local import to_memory

DATA = Path(__file__).parent / "data" / "scale"
BASE = DATA / "base.jsonl"
NEW = DATA / "new.jsonl"
N_BASE, N_NEW = 12, 2


def test_rebuild_with_new_papers_reuses_the_old_ones_and_equals_a_cold_build(tmp_path):
    first = build([BASE], tmp_path / "inc", views=False)
    assert first.fragments_reused == 0
    again = build([BASE, NEW], tmp_path / "inc", views=False)
    cold = build([BASE, NEW], tmp_path / "cold", views=False, cache=False)
    assert (tmp_path / "inc" / "kg.ttl").read_bytes() == (tmp_path / "cold" / "kg.ttl").read_bytes()
    assert (again.triples, again.links, again.proposes, again.entities) == (
        cold.triples, cold.links, cold.proposes, cold.entities)
    # the new papers are made; old papers are reused unless a new one changed their entities
    assert N_BASE // 2 <= again.fragments_reused <= N_BASE
    unchanged = build([BASE, NEW], tmp_path / "inc", views=False)
    assert unchanged.fragments_reused == N_BASE + N_NEW


def _write(path: Path, abstracts: list[str]) -> Path:
    path.write_text("".join(json.dumps({"abstract": a}) + "\n" for a in abstracts))
    return path


def test_a_new_paper_defining_an_abbreviation_joins_the_old_papers_entity(tmp_path):
    old = ("We train a deep QLMP network on the activations of language models. "
           "The QLMP network recovers interpretable directions and outperforms prior methods.")
    new = ("We propose quantised latent message passing (QLMP), a graph neural network architecture for "
           "molecules. QLMP improves accuracy on molecular property prediction.")
    first = _write(tmp_path / "a.jsonl", [old])
    second = _write(tmp_path / "b.jsonl", [new])
    build([first], tmp_path / "inc", views=False)
    build([first, second], tmp_path / "inc", views=False)
    build([first, second], tmp_path / "cold", views=False, cache=False)
    assert (tmp_path / "inc" / "kg.ttl").read_bytes() == (tmp_path / "cold" / "kg.ttl").read_bytes()
    graph = to_memory(load_graph(tmp_path / "inc" / "kg.ttl"))
    # the new paper proposes QLMP ("We propose ... (QLMP)"), the old one uses it: one entity
    linked = [set(graph.objects(paper_iri(text), KG.usesMethod)) | set(graph.objects(paper_iri(text), KG.proposes))
              for text in (old, new)]
    assert linked[0] & linked[1], "the old and the new paper should share the QLMP entity"


def test_the_digest_changes_with_the_entity_a_mention_resolved_to():
    paper = Paper(iri=str(paper_iri("An abstract.")), abstract="An abstract.",
                  records=[Record("An abstract.", SourceRef("a.jsonl", 1, 1))])
    one = paper_digest("f", paper, "k", ["https://w3id.org/paperkg/id/method/a"])
    assert one == paper_digest("f", paper, "k", ["https://w3id.org/paperkg/id/method/a"])
    assert one != paper_digest("f", paper, "k", ["https://w3id.org/paperkg/id/method/b"])
    assert one != paper_digest("g", paper, "k", ["https://w3id.org/paperkg/id/method/a"])
    paper.records.append(Record("An abstract.", SourceRef("b.jsonl", 3, 3)))
    assert one != paper_digest("f", paper, "k", ["https://w3id.org/paperkg/id/method/a"])


def _index() -> EntityIndex:
    method = "https://w3id.org/paperkg/id/method/transformer"
    resolution = Resolution({method: Entity(method, "Method", "Transformer")},
                            {("p", 0, 11, "Method"): method})
    return EntityIndex(resolution)


def test_replays_accepts_the_same_answers_and_rejects_a_changed_one():
    index = _index()
    method = "https://w3id.org/paperkg/id/method/transformer"
    assert replays(index, [("find", ("p", (0, 11), "Method", "Transformer"), method),
                           ("find", ("p", None, "Method", "transformers"), method)])
    assert not replays(index, [("find", ("p", None, "Method", "a new name"), method)])
    assert not replays(index, [("find", ("p", (0, 11), "Method", "Transformer"), None)])


def test_replays_checks_a_minted_metrics_label_too():
    index = _index()
    iri, triples = index.metric("p", None, "widget score")
    assert replays(_index(), [("metric", ("p", None, "widget score"), (iri, tuple(triples)))])
    relabelled = tuple((s, p, Literal("Widget Score")) if o == Literal("widget score") else (s, p, o)
                       for s, p, o in triples)
    assert not replays(_index(), [("metric", ("p", None, "widget score"), (iri, relabelled))])
    assert isinstance(URIRef(iri), URIRef)


def test_windows_bound_papers_and_source_records() -> None:
    from types import SimpleNamespace

    from kg.rdf.assemble import windows

    papers = [SimpleNamespace(records=[None] * n) for n in (1, 1, 3000, 2000, 5000, 1, 1)]
    got = list(windows(papers, size=3, records=4096))  # type: ignore[arg-type]
    assert got == [(0, 3), (3, 4), (4, 5), (5, 7)]  # a paper over the budget alone still gets a window
    assert [i for a, b in got for i in range(a, b)] == list(range(len(papers)))
