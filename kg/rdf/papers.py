"""Turning papers, their extractions and the resolved entities into RDF triples of the public schema."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pyoxigraph as ox
from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

from kg.extract.invisible import visible
from kg.extract.title import title_name
from kg.entity_types import ENTITY_TYPES
from kg.extract.types import Mention, PaperExtraction
from kg.ingest.corpus import Paper
from kg.ingest.latex import latex_to_text
from kg.namespaces import KG, SCHEMA
from kg.rdf.evidence import Evidence, extractor_triples
from kg.resolve.entities import Resolution, mention_key
from kg.resolve.ids import mention_iri, person_iri, source_iri

Triple = tuple[URIRef, URIRef, object]

#: entity type -> the property linking a paper to an entity of that type
LINK_PROPERTY: dict[str, URIRef] = {t.name: KG[t.link] for t in ENTITY_TYPES}

_WORD = re.compile(r"\S+")
#: LaTeX escapes seen in URLs written in abstracts ("github.com/a\\_b" means "github.com/a_b")
_LATEX_ESCAPE = re.compile(r"\\([_%#&~$])")
#: characters an IRI may not hold (RFC 3987 / Turtle IRIREF), percent-encoded in code URLs
_NOT_IRI = re.compile(r'[\x00-\x20<>"{}|^`\\\x7f-\x9f]')


def code_iri(url: str) -> URIRef | None:
    """The IRI of a code URL as written in an abstract: LaTeX escapes undone, characters IRIs may not
    hold percent-encoded; None when it is still not a valid IRI (it is then left out of the graph)."""
    iri = _NOT_IRI.sub(lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode("utf-8")), _LATEX_ESCAPE.sub(r"\1", url))
    try:
        ox.NamedNode(iri)
    except ValueError:
        return None
    return URIRef(iri)


def _readable(text: str) -> str:
    """``text`` with its LaTeX commands decoded ("$\\mathtt{VITS}$" -> "VITS") and its spaces collapsed; text
    without a command is left as it is, so a title BibTeX ingest decoded already ("$1M") is not read twice."""
    decoded = latex_to_text(text) if "\\" in text else text
    return " ".join(decoded.split()) or " ".join(text.split())


def short_title(paper: Paper, extraction: PaperExtraction) -> str:
    """The paper's short name, as readable text (LaTeX decoded: "$\\mathtt{VITS}$" is "VITS"): the name
    its title gives ("X: ..."), unless that is a phrase and the abstract defines a one-word name; else
    what it introduces, else its title, else the start of its first sentence."""
    named = title_name(paper.field("title"), paper.abstract)
    if named and (" " not in named or not extraction.name or " " in extraction.name):
        return _readable(named)
    if extraction.name:
        return _readable(extraction.name)  # one word the abstract defines beats a title's phrase ("TFiLM", not "Temporal FiLM")
    title = paper.field("title")
    if title:
        return _readable(title)
    first = paper.abstract[: extraction.sentences[0][1]] if extraction.sentences else paper.abstract
    words = _WORD.findall(visible(first))
    text = " ".join(words[:10]).rstrip(".,;:")
    return text + ("…" if len(words) > 10 else "")


def paper_triples(paper: Paper, extraction: PaperExtraction) -> Iterator[Triple]:
    """Triples describing the paper itself: text, label, metadata, sources, code links."""
    p = URIRef(paper.iri)
    yield p, RDF.type, KG.Paper
    yield p, DCTERMS.abstract, Literal(paper.abstract)
    yield p, RDFS.label, Literal(short_title(paper, extraction))
    title = paper.field("title")
    if title:
        yield p, DCTERMS.title, Literal(title)
    identifier = paper.field("id")
    yield p, DCTERMS.identifier, Literal(identifier or paper.iri.rsplit("/", 1)[-1])
    yield from identifier_triples(p, paper.field("doi"), paper.field("arxiv"))
    page = code_iri(paper.field("url") or "")
    if page is not None and paper.field("url"):
        yield p, SCHEMA.url, page
    for author in paper.field("authors") or ():
        person = person_iri(author.name, author.orcid)
        yield p, DCTERMS.creator, person
        yield from person_triples(person, author.name, author.orcid)
    year = paper.field("year")
    if year:
        yield p, KG.year, Literal(f"{int(year):04d}", datatype=XSD.gYear)
    day = paper.field("date")
    if day:
        yield p, DCTERMS.date, Literal(day, datatype=XSD.date)
    venue = paper.field("venue")
    if venue:
        yield p, KG.venue, Literal(venue)
    for kw in paper.field("keywords") or ():
        yield p, SCHEMA.keywords, Literal(kw)
    for url in extraction.code_urls:
        iri = code_iri(url)
        if iri is not None:
            yield p, KG.codeRepository, iri
    for record in paper.records:
        s = source_iri(p, record.source.file, record.source.position)
        yield p, PROV.wasDerivedFrom, s
        yield s, RDF.type, KG.SourceRecord
        yield s, KG.sourceFile, Literal(record.source.file)
        yield s, KG.position, Literal(record.source.position)
        yield s, KG.line, Literal(record.source.line)
        if record.id:
            yield s, DCTERMS.identifier, Literal(record.id)


#: how each identifier scheme is written as a literal and as the IRI that other graphs use for the paper
DOI_IRI = "https://doi.org/"
ARXIV_IRI = "https://arxiv.org/abs/"
ORCID_IRI = "https://orcid.org/"


def identifier_triples(paper: URIRef, doi: str | None, arxiv: str | None) -> Iterator[Triple]:
    """A paper's DOI and arXiv id: ``dcterms:identifier`` / ``schema:identifier`` literals (``doi:10.1000/x``,
    ``arXiv:2106.01234``) and ``owl:sameAs`` the resolver IRIs, so the graph joins OpenAlex, Wikidata and
    publishers' data on them."""
    for literal, iri in ((doi and f"doi:{doi}", doi and DOI_IRI + doi), (arxiv and f"arXiv:{arxiv}", arxiv and ARXIV_IRI + arxiv)):
        if not literal:
            continue
        yield paper, DCTERMS.identifier, Literal(literal)
        yield paper, SCHEMA.identifier, Literal(literal)
        same = code_iri(iri)  # percent-encodes what an IRI may not hold (DOIs may contain "<", "#", ...)
        if same is not None:
            yield paper, OWL.sameAs, same


def person_triples(person: URIRef, name: str, orcid: str | None) -> Iterator[Triple]:
    """An author node: ``schema:Person`` with its name as written, and its ORCID iD when known."""
    yield person, RDF.type, SCHEMA.Person
    yield person, SCHEMA.name, Literal(name)
    if orcid:
        yield person, SCHEMA.identifier, Literal(orcid)
        yield person, OWL.sameAs, URIRef(ORCID_IRI + orcid)


def link_evidence(paper_iri: str, extraction: PaperExtraction,
                  resolution: Resolution) -> list[tuple[URIRef, URIRef, Mention]]:
    """Each paper -> entity link once, as (property, entity, mention): the link's evidence is its
    earliest mention in the abstract, else in the title (the others back the same triple and add nothing
    to trace it)."""
    links: dict[tuple[URIRef, URIRef], Mention] = {}
    # one span backs one link: where a span is both proposed and used, it is the proposal
    proposed_spans = {mention_key(paper_iri, m) for m in extraction.mentions if m.proposed}
    for m in sorted(extraction.mentions, key=lambda m: (m.in_title, m.start, m.end, m.type, m.rule)):
        key = mention_key(paper_iri, m)
        if not m.proposed and key in proposed_spans:
            continue
        iri = resolution.entity_of.get(key)
        if iri is None:
            continue
        prop = KG.proposes if m.proposed else LINK_PROPERTY[m.type]
        links.setdefault((prop, URIRef(iri)), m)
    return [(prop, e, m) for (prop, e), m in links.items()]


def decimal_text(value: float, places: int = 3) -> str:
    """``value`` rounded to ``places`` as a canonical xsd:decimal ("0.95", "1.0"): no trailing zeros."""
    text = f"{value:.{places}f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def link_triples(paper: Paper, extraction: PaperExtraction, resolution: Resolution) -> Iterator[Triple]:
    """Paper -> entity links, each with its evidence: a kg:Mention node and the sentence it sits in."""
    p = URIRef(paper.iri)
    evidence = Evidence(paper, extraction)
    for prop, e, m in link_evidence(paper.iri, extraction, resolution):
        yield p, prop, e
        mi = mention_iri(p, m.start, m.end, m.type, in_title=m.in_title)
        yield mi, RDF.type, KG.Mention
        yield mi, KG.paper, p
        yield mi, KG.entity, e
        yield mi, KG.property, prop
        text = paper.field("title") if m.in_title else paper.abstract
        yield mi, KG.anchorText, Literal(text[m.start : m.end])
        if m.confidence is not None:
            yield mi, KG.confidence, Literal(decimal_text(m.confidence), datatype=XSD.decimal)
        if m.in_title:
            yield mi, KG.inTitle, Literal(True)
        yield from evidence.cite(mi, m.start, m.end, m.rule, in_title=m.in_title)
    yield from evidence.sentence_triples()  # the extractors are the corpus's (entity_triples)


def entity_triples(resolution: Resolution, rules: set[str], node=URIRef, literal=Literal) -> Iterator[Triple]:  # type: ignore[no-untyped-def]
    """Triples of every resolved entity (type and labels) and of the extractors that were used.

    ``node`` and ``literal`` make the entities' IRIs and labels (rdflib terms by default; a writer may
    pass pyoxigraph's, which are cheaper to make by the hundred thousand)."""
    classes = {t: node(str(KG[t])) for t in {ent.type for ent in resolution.entities.values()}}
    for iri, ent in sorted(resolution.entities.items()):
        e = node(iri)
        yield e, RDF.type, classes[ent.type]
        yield e, RDFS.label, literal(ent.label)
        for alt in sorted(ent.alt_labels):
            yield e, SKOS.altLabel, literal(alt)
    for rule in sorted(rules):
        yield from extractor_triples(rule)
