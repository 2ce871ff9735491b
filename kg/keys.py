"""Written forms and their keys: the normalisation extraction and entity resolution both compare names by.

Pure string functions (no spaCy, no rdflib): :func:`clean_label` makes a readable label, :func:`norm_key`
the matching key, :func:`readable_key` the key with its words kept apart (for IRIs), and :func:`form_keys`
all of them at once, as extractions store them for each written form.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_LATEX_CMD = re.compile(r"\\[a-zA-Z]+\*?\{([^{}]*)\}")
_LATEX_BARE = re.compile(r"\\[a-zA-Z]+\*?|[{}$]")
_SPACES = re.compile(r"\s+")


def clean_label(text: str) -> str:
    """A readable label from written text: LaTeX markup dropped, whitespace collapsed, edges trimmed of
    punctuation and dashes."""
    text = _LATEX_CMD.sub(r"\1", text)
    text = _LATEX_BARE.sub("", text)
    text = _SPACES.sub(" ", text)
    # a dash at an edge belongs to the sentence ("MaGNET-"), and a tilde is LaTeX's unbreakable space ("Neuron~(DGN)")
    return text.strip(" \t\n,.;:()[]'\"`-~\u2013\u2014")


_ACRONYM_PLURAL = re.compile(r"[A-Z0-9\-]{2,}s")
_NOT_KEY_CHAR = re.compile(r"[^0-9A-Za-z+&α-ωΑ-Ω]")
_SPLIT = re.compile(r"[\s\-_/,:;()\[\]'\"`.\u2010-\u2015\u2212]+")


def singular(word: str) -> str:
    """Fold a plural: lower-case words ("networks"), and acronyms and names with a plural s after a capital
    ("SAEs", "ViTs")."""
    if _ACRONYM_PLURAL.fullmatch(word) or (len(word) > 3 and word[-1] == "s" and word[-2].isupper()):
        return word[:-1]  # "SAEs"; a name in mixed case too: "ViTs", "NeRFs", "LoRAs" (so "VITS" is no "ViTs")
    if word != word.lower():
        return word  # a name ("GatedLens") keeps its letters
    if word.endswith(("series", "species")):
        return word  # singular and plural alike
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _key_parts(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", clean_label(text))
    words = [_NOT_KEY_CHAR.sub("", w) for w in _SPLIT.split(text)]
    words = [w for w in words if w]
    if len(words) > 1:  # in a phrase a capitalised word is the word: "Binary Neural Networks", "EEG foundation Models"
        words = [w.lower() if w[1:].islower() and w.isalpha() else w for w in words]
    return [singular(w).lower() for w in words]


@lru_cache(maxsize=1 << 19)
def norm_key(text: str) -> str:
    """The matching key of a written form: NFKC, lower case, punctuation and spaces dropped, plurals folded."""
    return "".join(_key_parts(text))


@lru_cache(maxsize=1 << 19)
def readable_key(text: str) -> str:
    """Like :func:`norm_key` but with words kept apart by '-', for readable IRIs ("message-passing-layer")."""
    return "-".join(_key_parts(text))


def form_keys(form: str) -> tuple[str, str, str, str]:
    """What resolution compares a written form by: its key, its readable key, the key of that readable
    key (the IRI candidates must key the same), and its clean label."""
    readable = readable_key(form)
    return norm_key(form), readable, norm_key(readable), clean_label(form)
