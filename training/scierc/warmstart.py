"""A spaCy ``[initialize.after_init]`` callback: copy the tok2vec weights of a pipeline's NER.

Used by ``train.py --warm-start`` (passed to ``spacy train`` with ``--code``): after the new NER
is initialised, its tok2vec layer gets the weights of the installed English pipeline's NER
tok2vec (same architecture: MultiHashEmbed NORM/PREFIX/SUFFIX/SHAPE, width 96, depth 4).
"""
from __future__ import annotations

from typing import Callable

import spacy


@spacy.registry.callbacks("paperkg.copy_ner_tok2vec.v1")
def make_copy_ner_tok2vec(source: str, component: str = "ner") -> Callable:
    """Callback copying the tok2vec of ``source``'s ``ner`` into the trained pipeline's ``component``."""

    def copy_tok2vec(nlp):
        src = spacy.load(source, exclude=["tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer"])
        weights = src.get_pipe("ner").model.get_ref("tok2vec").to_bytes()
        nlp.get_pipe(component).model.get_ref("tok2vec").from_bytes(weights)
        print(f"warm start: tok2vec of {component!r} copied from {source}'s ner")
        return nlp

    return copy_tok2vec
