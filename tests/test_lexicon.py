"""Each lexicon has one meaning: no word stands under two contradicting meanings."""
from __future__ import annotations

from collections import defaultdict

import pytest

import kg.extract.lexicon as lexicon
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
    return {n: v for n, v in vars(lexicon).items() if n.isupper() and isinstance(v, frozenset)}


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
