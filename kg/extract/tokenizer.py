"""Tokenizer tweaks for abstracts: phrasal compounds stay one token ("out-of-distribution"), and a
closing bracket glued to the next word is split off ("(SRM),which"), and so are LaTeX's tie ("Neuron~(DGN)"),
the full stop after a name ending in a capital ("CelebA."), a per cent sign glued to a word ("84.0%Top-1") and
a LaTeX command's braces ("\\emph{ImageNet}", "$\\textit{ab-initio}$").

spaCy splits every hyphen between letters, so "out-of-distribution generalization" reaches the
parser as five tokens with a preposition in the middle, and the noun phrase is lost. Compounds
joined around a function word ("X-of-Y", "X-to-Y", "in-context", "off-the-shelf") are kept whole;
ordinary compounds ("multi-agent", "graph-based") are still split as before.
"""
from __future__ import annotations

import re
from typing import Callable

#: words that make a hyphenated string a phrasal compound
_FUNCTION_WORDS = "of|the|to|in|on|for|and|or|a|an|by|with|at|from|off|out|over|under|up|vs"
PHRASAL_COMPOUND = re.compile(
    rf"(?i)(?:[a-z0-9]+-)*(?:(?<=-)(?:{_FUNCTION_WORDS})-|^(?:in|out|off|on|over)-)(?:[a-z0-9]+-?)*[a-z0-9]+"
)


def is_phrasal_compound(text: str) -> bool:
    """Is ``text`` a hyphenated compound built around a function word ("out-of-distribution")?"""
    return "-" in text and PHRASAL_COMPOUND.fullmatch(text) is not None


def keep_phrasal_compounds(tokenizer) -> None:
    """Make ``tokenizer`` (a spaCy Tokenizer) keep phrasal compounds as single tokens."""
    previous: Callable | None = tokenizer.token_match

    def match(text: str):
        if is_phrasal_compound(text):
            return True
        return previous(text) if previous is not None else None

    tokenizer.token_match = match


#: a bracket and punctuation glued to the next word: "(SRM),which" -> "(", "SRM", ")", ",", "which";
#: LaTeX's tie (a non-breaking space) and a bracket after it: "Neuron~(DGN)" -> "Neuron", "~", "(", "DGN", ")"
#: and a bracket glued to a dash: "(CSS)—that" -> "(", "CSS", ")", "—", "that"; a full stop between a number and
#: the next sentence ("on CIFAR-100.When we") as spaCy splits it after a lower-case letter ("output.We"); a per
#: cent sign glued to the next word ("84.0%Top-1 accuracy")
GLUED_PUNCTUATION = (r"(?<=[0-9])\.(?=[A-Z][a-z])", r"(?<=[0-9])%(?=[A-Za-z])", r"[)\]](?=[,;:][A-Za-z])", r"(?<=[)\]])[,;:](?=[A-Za-z])", r"(?<=[A-Za-z0-9])~", r"(?<=~)[(\[]",
                     r"[)\]](?=(?:---?|[\u2013\u2014])[A-Za-z])", r"(?<=[)\]])(?:---?|[\u2013\u2014])(?=[A-Za-z])")


#: a sentence's full stop after a name that ends in a capital ("CelebA.", "Human3.6M.", "ViT."), which spaCy
#: keeps on the word as it keeps the stop of "U.S."; an initialism's stops stay ("U.S.")
FINAL_STOP = (r"(?<=[a-z0-9][A-Z])\.$",)


#: a LaTeX command opening a group before a word ("\\textsc{HalfCheetah}", "\\emph{ImageNet}"), which spaCy kept on
#: the word, so no vocabulary found it; and the group's end, closing inline math too ("$\\textit{ab-initio}$")
LATEX_GROUP = (r"\\[A-Za-z]+\{",)
LATEX_GROUP_END = (r"\}\$",)


def adapt_tokenizer(nlp) -> None:
    """Apply paperkg's tokenizer tweaks to the pipeline ``nlp`` (a spaCy Language)."""
    from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

    keep_phrasal_compounds(nlp.tokenizer)
    nlp.tokenizer.infix_finditer = compile_infix_regex([*nlp.Defaults.infixes, *GLUED_PUNCTUATION]).finditer
    nlp.tokenizer.suffix_search = compile_suffix_regex([*nlp.Defaults.suffixes, *FINAL_STOP, *LATEX_GROUP_END]).search
    nlp.tokenizer.prefix_search = compile_prefix_regex([*LATEX_GROUP, *nlp.Defaults.prefixes]).search
