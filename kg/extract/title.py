"""What a paper's title says it introduces: the name before the colon ("GrASP: Gradient-Based ...").

The guidelines let the title decide a paper's name, and a name a title announces is nearly always
what the paper proposes (86 of the 90 such titles in the training split; the rest differ in case).
Abstracts often never write it ("HyperEmbed: Tradeoffs Between ..."), or write it without a proposing
verb the abstract rules can see. :func:`with_title_name` is applied to a paper's extraction where the
paper and its extraction meet (the graph writer), because the extraction itself is of the abstract alone
and is cached by the abstract's text.
"""
from __future__ import annotations

import dataclasses
import re

from kg.extract.lexicon import DATASET_NOUNS, METRIC_NOUNS
from kg.extract.terms import is_name, written_at
from kg.extract.types import NAMEABLE, PROPOSABLE, Mention, PaperExtraction
from kg.keys import norm_key

#: The extractor of names taken from titles (``prov:wasAttributedTo`` of their mentions).
TITLE_RULE = "title-name"

_TITLE_NAME = re.compile(r"^\s*([^:]{1,40}?)\s*:\s+\S")
#: what may follow a name that a title is made of: nothing, or the colon or dash before a subtitle
_AFTER_TITLE_NAME = frozenset({"", ":", "\u2013", "\u2014"})
#: a subtitle that says the paper surveys its lead phrase ("X: A Comprehensive Survey"): it introduces nothing
_SURVEY = re.compile(r"(?i)\b(?:survey|review|overview|tutorial|primer|perspective)\b")


def _surveys(title: str) -> bool:
    """Does ``title``'s subtitle say the paper surveys its lead phrase ("X: A Comprehensive Survey")?"""
    return bool(_SURVEY.search(title.partition(":")[2]))


#: how a title's phrase (not a name) starts: a gerund or a function word ("Learning to ...", "Towards ...")
_PHRASE_START = re.compile(r"(?:[A-Z][a-z]+ing|Towards?|On|Beyond|From|How|When|Why|What|Where|Is|Are|Do|Does|Can"
                           r"|Position|To|Let|Don|No|Yes|The|A|An)\b")
#: LaTeX in a name ("$\\pi$-Tuning"): its key would be that of a word ("tuning")
_LATEX = re.compile(r"[\\{}$~]")
#: the words Title Case leaves in lower case
_SMALL_WORDS = frozenset("of for and the in with a on to".split())


def title_name(title: str | None, abstract: str | None = None) -> str | None:
    """The name a title gives before a colon: "GrASP: Gradient-Based Affordance Selection" -> "GrASP".

    No comma, and either at most three words, one of them (or a part of one between hyphens) name-like, or
    (given the ``abstract``) words in Title Case that the abstract writes again (:func:`_said_again`:
    "Barlow Twins: ...", "Algorithm of Thoughts: ..."; on the training split 38 of the 40 more names this
    finds are the paper's own).
    "Protect the weak: ..." is a phrase."""
    if not title:
        return None
    m = _TITLE_NAME.match(title)
    if not m:
        return None
    name = m.group(1).strip()
    if "," in name:
        return None
    if len(name.split()) <= 3 and _name_like(name):
        return name
    return name if abstract is not None and _said_again(name, abstract) else None


def _name_like(name: str) -> bool:
    """Is a word of ``name`` name-like ("KO codes"), or a part between hyphens of its last word
    ("Filtered-CoPhy", "i-RevNet"; not "Multi-LLM Debate" or "Text-to-SQL Parsing", phrases about a name)?"""
    words = name.split()
    return any(is_name(w) for w in words) or any(is_name(part) for part in words[-1].split("-"))


def _said_again(name: str, abstract: str) -> bool:
    """Is ``name`` at most four Title Case words (besides small ones: "of", "the") without LaTeX, not
    starting as a phrase does ("Learning to ...", "Towards ..."), and written again in ``abstract``
    inside a sentence, where a common word would be in lower case ("we propose Ferret", not
    "Memorization is ...")?"""
    words = name.split()
    if len([w for w in words if w not in _SMALL_WORDS]) > 4 or _LATEX.search(name) or _PHRASE_START.match(name) \
            or not all(w[:1].isupper() or w in _SMALL_WORDS or not w[:1].isalpha() for w in words):
        return False
    for start in written_at(abstract, name):
        before = abstract[:start].rstrip()
        if before and before[-1] not in ".!?:":
            return True
    return False


def title_name_type(title: str) -> str:
    """The type of what the title names, from the words after its colon: "X: A Benchmark for ..." is a
    Dataset, "X: An Evaluation Metric for ..." a Metric, anything else a Method."""
    words = {w.lower() for w in re.findall(r"[A-Za-z-]+", title.split(":", 1)[1])}
    if words & DATASET_NOUNS:
        return "Dataset"
    if words & METRIC_NOUNS:
        return "Metric"
    return "Method"


def _names(m: Mention) -> set[str]:
    return {norm_key(x) for x in (m.text, m.short_form, m.long_form) if x}


def with_title_name(extraction: PaperExtraction, title: str | None, abstract: str) -> PaperExtraction:
    """``extraction`` with the name its ``title`` announces marked as proposed.

    - Already proposed (as written, or as a short or long form): unchanged.
    - Written in the abstract as a mention: those mentions become proposals, keeping their type. A
      vocabulary concept of one word or a name-like form too: a title that leads with it is the paper that
      introduced it ("SchNet: A continuous-filter ...", "Meta-Dataset: A Dataset of Datasets ..."; 9 of 9
      such titles on the training corpus's train and dev splits); a concept named in words ("Graph Neural
      Networks: ...") is the field, and a survey's lead phrase what it surveys: unchanged.
    - Written in the abstract but not a mention: a proposal there, typed by the title.
    - Not written in the abstract: a proposal in the title (``in_title``; its offsets index the title).
    """
    name = title_name(title, abstract)
    if not name or title is None or _surveys(title):
        return extraction  # a survey's lead phrase ("X: A Review of Methods") is what it surveys
    key = norm_key(name)
    mentions = extraction.mentions
    if any(m.proposed and key in _names(m) for m in mentions):
        return extraction
    written = [m for m in mentions if norm_key(m.text) == key]
    if any(m.concept for m in written) and " " in name and not _name_like(name):
        return extraction  # a concept named in words ("Graph Neural Networks: ..."): the field, not the paper's own
    written = [m for m in written if m.type in PROPOSABLE]
    if written:
        marked = {m: dataclasses.replace(m, proposed=True) for m in written}
        return dataclasses.replace(extraction, mentions=sorted(marked.get(m, m) for m in mentions))
    type_name = title_name_type(title)
    found = next(written_at(abstract, name), None)
    if found is not None:
        added = Mention(found, found + len(name), type_name, name, TITLE_RULE, proposed=True)
    else:
        start = title.index(name)
        added = Mention(start, start + len(name), type_name, name, TITLE_RULE, proposed=True, in_title=True)
    return dataclasses.replace(extraction, mentions=sorted([*mentions, added]))


#: a hyphen or a run of spaces, one separator for comparing a title with a written form
_SEPARATORS = re.compile(r"[\s\-\u2010\u2011]+")


def _folded(text: str) -> str:
    """``text`` lower-cased, with each hyphen or run of spaces one space, as titles are compared."""
    return _SEPARATORS.sub(" ", text.strip().lower())


def _folded_title(title: str) -> str:
    """A title :func:`_folded`, without its closing full stop."""
    return _folded(title.strip().rstrip("."))


def titled_by(title: str, form: str) -> bool:
    """Is ``title`` the written ``form`` itself, or the form before a colon or a dash ("Set Functions for
    Time Series.", "Neural Inverse Knitting: From Images to ...")? Case is ignored, titles being in Title
    Case, and so is a hyphen in place of a space ("Critic Regularized Regression", "critic-regularized
    regression")."""
    return _led_by(_folded_title(title), form)


def _led_by(folded_title: str, form: str) -> bool:
    """:func:`titled_by` for a title already :func:`_folded` (once for all of a paper's mentions)."""
    form = _folded(form)
    return (bool(form.strip()) and folded_title.startswith(form)
            and folded_title[len(form):].strip()[:1] in _AFTER_TITLE_NAME)


def with_title_mention(extraction: PaperExtraction, title: str | None) -> PaperExtraction:
    """``extraction`` with the method, dataset or metric its ``title`` is made of marked as proposed.

    A title that is the written form of a mention (its text or long form; no vocabulary concept), whole or
    before a colon or a dash (:func:`titled_by`), announces the paper's own artifact: the abstract writes
    "Our method SeFT (Set Functions for Time Series)" under the title "Set Functions for Time Series". On the
    training split's annotations such titles are the paper's own artifact 138 times and something it uses
    twice. A task of that name is the paper's problem, not its artifact, and stays one; so does the lead
    phrase of a survey ("Graph Prompt Learning: A Comprehensive Survey"). The paper is named by the
    mention's short form (else its text) when the abstract named nothing.

    A title made of a proposed mention (one the abstract proposes, or the lead name :func:`with_title_name`
    marked, a vocabulary concept's too) names the paper by it, over the abstract's choice, when that name
    (its short form, else its text) is coined: "CKConv: Continuous Kernel Convolution ..." names the paper
    CKConv over the abstract's "CKCNNs", and the title "Cross-Spectral Factor Analysis" names it by that
    proposal's short form, CSFA, over the "LFPs" of "we introduce a model of recordings such as local
    field potentials (LFPs)"."""
    if not title or _surveys(title):
        return extraction
    folded = _folded_title(title)
    titled = [m for m in extraction.mentions if not m.in_title and m.type in NAMEABLE
              and any(f and _led_by(folded, f) for f in (m.text, m.long_form))]
    own = [m for m in titled if m.proposed]
    if own and _name_like(name := _short_name(own)):
        extraction = dataclasses.replace(extraction, name=name)
    marked = [m for m in titled if not m.proposed and not m.concept]
    if not marked:
        return extraction
    keys = set().union(*map(_names, marked))
    mentions = sorted(dataclasses.replace(m, proposed=True)
                      if not m.proposed and not m.concept and m.type in NAMEABLE and _names(m) & keys else m
                      for m in extraction.mentions)
    return dataclasses.replace(extraction, mentions=mentions, name=extraction.name or _short_name(marked))


def _short_name(mentions: list[Mention]) -> str:
    """The short form of the first of (non-empty) ``mentions`` that has one, else the first one's text."""
    ordered = sorted(mentions)
    return next((m.short_form for m in ordered if m.short_form), ordered[0].text)
