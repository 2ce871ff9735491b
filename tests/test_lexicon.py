"""Each lexicon has one meaning: no word stands under two contradicting meanings."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

import kg.extract.lexicon as lexicon
from kg.errors import OntologyError
from kg.extract.vocab import load_vocabulary


def contradictions(groups: tuple[tuple[str, ...], ...], lexicons: dict[str, frozenset[str]]) -> dict[str, set[str]]:
    """word -> the lexicons of one contradicting group it stands in, for words in two or more."""
    out: dict[str, set[str]] = {}
    for group in groups:
        where: dict[str, set[str]] = defaultdict(set)
        for name in group:
            for word in lexicons[name]:
                where[word].add(name)
        out.update({w: names for w, names in where.items() if len(names) > 1})
    return out


def lexicons() -> dict[str, frozenset[str]]:
    return lexicon.lexicons()


def test_every_contradicting_group_names_real_lexicons():
    known = lexicons()
    assert all(name in known for group in lexicon.CONTRADICTING for name in group)


def test_no_word_has_two_contradicting_meanings():
    assert contradictions(lexicon.CONTRADICTING, lexicons()) == {}


def test_a_word_under_two_meanings_is_found():
    listed = {**lexicons(), "TASK_HEADS": lexicon.TASK_HEADS | {"attention"}}  # also a method head
    assert contradictions(lexicon.CONTRADICTING, listed) == {"attention": {"TASK_HEADS", "METHOD_HEADS"}}


@pytest.mark.parametrize("group", lexicon.CONTRADICTING, ids=lambda g: "-".join(g))
def test_each_group_is_checked(group):
    first, second = group[0], group[1]
    listed = {**lexicons(), first: lexicons()[first] | {"zzword"}, second: lexicons()[second] | {"zzword"}}
    assert contradictions((group,), listed) == {"zzword": {first, second}}


def test_vocabulary_forms_have_one_type_but_two_known_acronyms():
    """A written form of the vocabulary names concepts of one type; the only exceptions are two acronyms that
    stand for concepts of two types (ASR: speech recognition, attack success rate; SPICE: the caption metric,
    the molecule dataset), which the tagger's type decides in context."""
    types: dict[str, set[str]] = defaultdict(set)
    for term in load_vocabulary().terms:
        if not term.cue:
            types[term.form.lower()].add(term.type)
    assert {f: ts for f, ts in types.items() if len(ts) > 1} == {"asr": {"Task", "Metric"},
                                                              "spice": {"Metric", "Dataset"}}


def names_read(sources: list[str]) -> set[str]:
    """The names the code of ``sources`` reads (``X`` or ``module.X`` in an expression; an import is no read)."""
    found: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                found.add(node.id)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
    return found


def test_every_lexicon_is_read_by_the_extraction_code_and_none_is_empty():
    here = Path(lexicon.__file__)
    code = [p.read_text(encoding="utf-8") for p in here.parent.glob("*.py") if p != here]
    assert all(words for words in lexicons().values())
    assert sorted(set(lexicons()) - names_read(code)) == []


def test_a_lexicon_only_imported_is_not_read():
    assert names_read(["from kg.extract.lexicon import TASK_HEADS\n"]) == set()
    assert names_read(["from kg.extract.lexicon import TASK_HEADS\nx = 'a' in TASK_HEADS\n"]) >= {"TASK_HEADS"}


def test_a_lexicon_is_a_module_attribute_and_an_unknown_name_is_not():
    from kg.extract.lexicon import TASK_HEADS

    assert "segmentation" in TASK_HEADS and TASK_HEADS is lexicon.lexicons()["TASK_HEADS"]
    with pytest.raises(AttributeError, match="NO_SUCH_LEXICON"):
        lexicon.NO_SUCH_LEXICON  # noqa: B018


def test_words_split_on_spaces_and_phrases_stay_whole():
    parsed = lexicon.parse_lexicons({"A": {"means": "a", "words": ["x y", "z"]},
                                     "B": {"means": "b", "phrases": ["prior work", "sota"]}})
    assert parsed == {"A": frozenset({"x", "y", "z"}), "B": frozenset({"prior work", "sota"})}


@pytest.mark.parametrize("entry", [{"words": ["x"]}, {"means": "m"}, {"means": "m", "words": ["x"], "phrases": ["y"]},
                                   {"means": "m", "words": "x y"}, ["x"]])
def test_a_malformed_lexicon_is_refused_with_its_name(entry):
    with pytest.raises(OntologyError, match="lexicon 'BAD'"):
        lexicon.parse_lexicons({"BAD": entry}, "lexicon.json")


def test_a_lexicon_listed_twice_or_a_file_that_is_no_object_is_refused(tmp_path, monkeypatch):
    twice = tmp_path / "lexicon.json"
    twice.write_text('{"A": {"means": "a", "words": ["x"]}, "A": {"means": "b", "words": ["y"]}}', encoding="utf-8")
    monkeypatch.setattr(lexicon, "LEXICON_FILE", twice)
    lexicon.lexicons.cache_clear()
    try:
        with pytest.raises(OntologyError, match="lexicon A is listed twice"):
            lexicon.lexicons()
    finally:
        lexicon.lexicons.cache_clear()
    with pytest.raises(OntologyError, match="one JSON object"):
        lexicon.parse_lexicons(["A"], "lexicon.json")  # type: ignore[arg-type]
