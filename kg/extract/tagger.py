"""paperkg's trained entity tagger: a small transformer (BIO tags over wordpieces) run through onnxruntime.

The model (``kg/models/entity_tagger``: ``model.onnx``, ``tokenizer.json``, ``meta.json``) is fine-tuned
by ``python -m training.train`` on the training corpus's train split. Running it needs only
onnxruntime, the tokenizers library and numpy. The helpers here are pure (windows over long texts,
decoding tag probabilities into character spans, span probabilities); :class:`Tagger` holds the session.
"""
from __future__ import annotations

import json
import math
import re
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

import numpy

from kg.errors import ModelError
from kg.extract.lexicon import EDGE_WORDS

#: Where the trained tagger ships, inside the package.
TAGGER_DIR: Path = Path(__file__).resolve().parents[1] / "models" / "entity_tagger"

#: The span types the tagger finds, and its BIO tags (index 0 is outside any span).
LABELS: tuple[str, ...] = ("Method", "Dataset", "Task", "Metric")
TAGS: tuple[str, ...] = ("O", *(f"{p}-{label}" for label in LABELS for p in ("B", "I")))

#: A span as ``(start_char, end_char, label, confidence)``.
TagSpan = tuple[int, int, str, float]


def windows(n: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """``[a, b)`` windows of at most ``size`` items covering ``range(n)``, each sharing ``overlap`` with the next."""
    if n <= size:
        return [(0, n)]
    step = max(1, size - overlap)
    out, a = [], 0
    while True:
        b = min(n, a + size)
        out.append((a, b))
        if b == n:
            return out
        a += step


def window_probs(ids: Sequence[int], run: Callable, size: int, overlap: int, cls: int, sep: int) -> numpy.ndarray:
    """Tag probabilities ``(len(ids), len(TAGS))`` of a text's wordpieces, run window by window.

    ``run(ids, mask)`` takes padded ``(batch, width)`` lists and returns ``(batch, width, tags)``
    probabilities. Where windows overlap, each wordpiece takes the window in which it stands farther
    from an edge."""
    spans = windows(len(ids), size - 2, overlap)
    if not ids:
        return numpy.zeros((0, len(TAGS)), dtype=numpy.float32)
    width = max(b - a for a, b in spans) + 2
    batch_ids = [[cls, *ids[a:b], sep] + [0] * (width - (b - a) - 2) for a, b in spans]
    batch_mask = [[1] * (b - a + 2) + [0] * (width - (b - a) - 2) for a, b in spans]
    probs = numpy.asarray(run(batch_ids, batch_mask))
    out = numpy.zeros((len(ids), probs.shape[-1]), dtype=numpy.float32)
    margin = numpy.full(len(ids), -1)
    for row, (a, b) in enumerate(spans):
        for k in range(a, b):
            m = min(k - a, b - 1 - k)
            if m > margin[k]:
                margin[k] = m
                out[k] = probs[row, k - a + 1]
    return out


#: A word: letters and digits, joined by hyphens, slashes, apostrophes, dots or plus signs with no space
#: ("zero-shot", "ResNet-50", "GPT-4o", "v1.5", "pass@1"), but a full stop before a capitalised word ends it
#: ("ADE20k.We"); a span never starts or ends inside one.
WORD = re.compile(r"\w+(?:(?:[-\u2010\u2011\u2013/'\u2019+@]|\.(?![A-Z][a-z]))\w+)*")

_PAIRS = {"(": ")", "[": "]", "{": "}"}

#: A possessive ending ("BERT's", "LLM’s"): not part of the name it follows.
POSSESSIVE = re.compile(r"\w['’]s$")


def _balanced(text: str) -> bool:
    stack = []
    for c in text:
        if c in _PAIRS:
            stack.append(_PAIRS[c])
        elif c in _PAIRS.values() and (not stack or stack.pop() != c):
            return False
    return not stack


def trim_edges(text: str, start: int, end: int) -> tuple[int, int]:
    """``start:end`` without the function words, punctuation and possessive ending at its edges."""
    while True:
        piece = text[start:end]
        stripped = piece.strip(" \t\n,;:.-\u2013\u2014/")
        start += len(piece) - len(piece.lstrip(" \t\n,;:.-\u2013\u2014/"))
        end = start + len(stripped) if stripped else start
        words = text[start:end].split()
        if len(words) == 1 and words[0].lower() in EDGE_WORDS:
            return start, start  # a function word alone is no span
        if len(words) > 1 and words[0].lower() in EDGE_WORDS:
            start = text.index(words[1], start + len(words[0]))
            continue
        if len(words) > 1 and words[-1].lower() in EDGE_WORDS:
            end = text.rindex(words[-2], start, end - len(words[-1])) + len(words[-2])
            continue
        if POSSESSIVE.search(text, start, end) and end - start > 3:
            end -= 2  # "BERT's": the name is BERT
            continue
        return start, end


class Unit(NamedTuple):
    """A stretch of text that takes one tag: a word (its characters) or a piece of punctuation."""

    start: int
    end: int
    piece: int  # the index of the wordpiece whose probabilities decide the tag
    in_word: bool


def _units(offsets: Sequence[tuple[int, int]], text: str) -> list[Unit]:
    """The units of a text's wordpieces: each word (:data:`WORD`), read from its first piece, and each piece
    of punctuation between words."""
    words = [(m.start(), m.end()) for m in WORD.finditer(text)]
    starts = [a for a, _ in words]
    units, word_seen = [], -1
    for i, (a, b) in enumerate(offsets):
        if b <= a:
            continue
        w = bisect_right(starts, a) - 1
        in_word = w >= 0 and a < words[w][1]
        if in_word and w == word_seen:
            continue  # a word is decided by its first piece
        if in_word:
            word_seen = w
            a, b = words[w]
        units.append(Unit(a, b, i, in_word))
    return units


#: The indexes of the "B-X" tags in :data:`TAGS`; each "I-X" follows its "B-X".
B_TAGS: tuple[int, ...] = tuple(i for i, t in enumerate(TAGS) if t.startswith("B-"))


def best_tags(logp: numpy.ndarray) -> list[int]:
    """The most likely sequence of tags (indexes into :data:`TAGS`) that is valid BIO, given log probabilities
    ``logp`` of shape ``(units, tags)``: no ``I-X`` opens the sequence or follows anything but ``B-X`` or
    ``I-X``. Each unit's most likely tag where those already make a valid sequence, else Viterbi (over
    :data:`TAGS` as ordered: "O", then "B-X" and "I-X" for each label)."""
    best = logp.argmax(axis=1).tolist()
    if all(t == 0 or t in B_TAGS or prev in (t - 1, t) for prev, t in zip([0, *best], best)):
        return best
    rows = logp.tolist()
    score = [v if t == 0 or t in B_TAGS else -math.inf for t, v in enumerate(rows[0])]  # as if after an "O"
    back: list[list[int]] = []
    for row in rows[1:]:
        top = max(range(len(TAGS)), key=score.__getitem__)
        step, new = [top] * len(TAGS), [score[top] + v for v in row]  # "O" and "B-X" follow anything
        for b in B_TAGS:  # "I-X" (b + 1) follows "B-X" (b) or "I-X"
            i = b + 1
            prev = b if score[b] >= score[i] else i
            step[i], new[i] = prev, score[prev] + row[i]
        back.append(step)
        score = new
    path = [max(range(len(TAGS)), key=score.__getitem__)]
    for step in reversed(back):
        path.append(step[path[-1]])
    return path[::-1]


def decode(probs: numpy.ndarray, offsets: Sequence[tuple[int, int]], text: str) -> list[TagSpan]:
    """The spans of the most likely valid tag sequence (:func:`best_tags`), each with its confidence: the
    least probability, over its words, that the word belongs to a span of its label (``B-X`` plus ``I-X``).

    Tags are read word by word (:data:`WORD`), from each word's first piece; punctuation between words may
    continue a span but starts none. A span covers whole words; its edges lose function words and
    punctuation, and a span with unbalanced brackets is left out."""
    units = _units(offsets, text)
    if not units:
        return []
    unit_probs = numpy.asarray(probs, dtype=numpy.float64)[[u.piece for u in units]]
    logp = numpy.log(numpy.clip(unit_probs, 1e-12, 1.0))
    punctuation = numpy.array([not u.in_word for u in units])
    logp[numpy.ix_(punctuation, B_TAGS)] = -numpy.inf  # punctuation opens no span
    spans: list[list] = []  # [start, end, label, confidence]
    for unit, p, tag in zip(units, unit_probs, best_tags(logp)):
        if tag == 0:
            continue
        b_tag = tag if tag in B_TAGS else tag - 1
        member = float(p[b_tag] + p[b_tag + 1]) if unit.in_word else 1.0  # punctuation sets no confidence
        if tag != b_tag:  # an I tag; in a valid sequence the span it continues is the last one opened
            spans[-1][1], spans[-1][3] = unit.end, min(spans[-1][3], member)
        else:
            spans.append([unit.start, unit.end, TAGS[tag][2:], member])
    out: list[TagSpan] = []
    for a, b, label, conf in spans:
        a, b = trim_edges(text, a, b)
        if b > a and _balanced(text[a:b]) and any(c.isalnum() for c in text[a:b]):
            out.append((a, b, label, round(conf, 3)))
    return out


class TokenScores:
    """Span probabilities from a tagger's wordpiece probabilities, for one text.

    ``prob(start, end, label)`` is the probability that exactly the characters ``start:end`` are one span
    of ``label`` (its first piece ``B``, the others ``I``, the next piece not ``I``), None when those
    characters do not fall on piece boundaries; ``best(text, label)`` the highest such probability over
    every place the written form is, None when it is nowhere."""

    __slots__ = ("_probs", "_starts", "_ends", "_text")

    def __init__(self, probs: numpy.ndarray, offsets: Sequence[tuple[int, int]], text: str) -> None:
        self._probs, self._text = probs, text
        self._starts = {a: i for i, (a, b) in enumerate(offsets) if b > a}
        self._ends = {}
        for i, (a, b) in enumerate(offsets):
            if b > a:
                self._ends[b] = i

    def prob(self, start: int, end: int, label: str) -> float | None:
        i, j = self._starts.get(start), self._ends.get(end)
        if i is None or j is None or j < i or label not in LABELS:
            return None
        b, inside = TAGS.index(f"B-{label}"), TAGS.index(f"I-{label}")
        p = float(self._probs[i, b])
        for k in range(i + 1, j + 1):
            p *= float(self._probs[k, inside])
        if j + 1 < len(self._probs):
            p *= 1.0 - float(self._probs[j + 1, inside])
        return round(p, 3)

    def best(self, text: str, label: str) -> float | None:
        if not text:
            return None
        found, at = [], self._text.find(text)
        while at != -1:
            p = self.prob(at, at + len(text), label)
            if p is not None:
                found.append(p)
            at = self._text.find(text, at + 1)
        return max(found) if found else None

    def __len__(self) -> int:
        return len(self._probs)


class Tagger:
    """The exported tagger: ``spans(text)`` and ``analyse(texts)`` over an onnxruntime session."""

    def __init__(self, path: str | None = None, threads: int = 0) -> None:
        where = Path(path) if path else TAGGER_DIR
        missing = [n for n in ("model.onnx", "tokenizer.json", "meta.json") if not (where / n).is_file()]
        if missing:
            raise ModelError(f"the entity tagger is incomplete at {where} (missing {', '.join(missing)}); reinstall "
                             "paperkg from a full checkout, or retrain it with `python -m training.train "
                             f"--corpus ABSTRACTS.jsonl.gz --output {where}`")
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - both are dependencies of paperkg
            raise ModelError(f"the entity tagger needs onnxruntime and tokenizers ({exc}); "
                             "reinstall paperkg with pip") from exc
        self.meta = json.loads((where / "meta.json").read_text(encoding="utf-8"))
        if tuple(self.meta.get("tags", ())) != TAGS:
            raise ModelError(f"{where / 'meta.json'}: the model's tags {self.meta.get('tags')} are not paperkg's "
                             f"{list(TAGS)}; retrain it with `python -m training.train`")
        self.tokenizer = Tokenizer.from_file(str(where / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = int(threads) if threads > 0 else default_threads()
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = onnxruntime.InferenceSession(str(where / "model.onnx"), options,
                                                        providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own unrelated classes
            raise ModelError(f"cannot load the entity tagger at {where / 'model.onnx'}: {exc}; retrain it with "
                             "`python -m training.train`") from exc
        self.window, self.overlap = int(self.meta["window"]), int(self.meta["overlap"])
        self.cls, self.sep = self.tokenizer.token_to_id("[CLS]"), self.tokenizer.token_to_id("[SEP]")

    def _run(self, ids: list[list[int]], mask: list[list[int]]) -> numpy.ndarray:
        logits = self.session.run(["logits"], {"input_ids": numpy.asarray(ids, dtype=numpy.int64),
                                               "attention_mask": numpy.asarray(mask, dtype=numpy.int64)})[0]
        logits = logits - logits.max(axis=-1, keepdims=True)
        e = numpy.exp(logits)
        return e / e.sum(axis=-1, keepdims=True)

    def analyse(self, text: str) -> tuple[list[TagSpan], TokenScores]:
        """The spans the tagger finds in ``text`` and the span probabilities behind them."""
        enc = self.tokenizer.encode(text, add_special_tokens=False)
        probs = window_probs(enc.ids, self._run, self.window, self.overlap, self.cls, self.sep)
        return decode(probs, enc.offsets, text), TokenScores(probs, enc.offsets, text)

    def spans(self, text: str) -> list[TagSpan]:
        """The spans the tagger finds in ``text``: ``(start_char, end_char, label, confidence)``."""
        return self.analyse(text)[0]


def default_threads() -> int:
    """Threads for the tagger: one in a worker process of a parallel build (its siblings use the other
    cores), else up to two, so that a one-worker build uses the machine's second core for the model."""
    import multiprocessing
    import os

    return 1 if multiprocessing.parent_process() is not None else max(1, min(2, os.cpu_count() or 1))


@lru_cache(maxsize=4)
def load_tagger(path: str | None = None, threads: int = 0) -> Tagger:
    """The tagger at ``path`` (None: the one shipped in the package) running on ``threads`` (0:
    :func:`default_threads`); cached, so it loads once per process."""
    return Tagger(path, threads)


class TaggerComponent:
    """Sets ``doc._.model_spans`` and ``doc._.model_scores`` from the tagger; ``doc.ents`` is left alone.

    Spans under ``threshold`` are left out, or under their label's own entry in ``label_thresholds``
    (``{"Task": 0.5}``); a span is widened to whole spaCy tokens, and left out when that unbalances its
    brackets."""

    def __init__(self, model_path: str | None = None, threshold: float = 0.0, threads: int = 0,
                 label_thresholds: dict[str, float] | None = None, lookahead: int = 64) -> None:
        from kg.extract.extensions import register_extensions

        register_extensions()
        unknown = sorted(set(label_thresholds or {}) - set(LABELS))
        if unknown:
            raise ModelError(f"paperkg_entity_tagger: label_thresholds names {unknown}, which are not the "
                             f"tagger's labels {list(LABELS)}; correct COMPONENT_CONFIG['paperkg_entity_tagger'] "
                             "in kg/extract/model.py (or the config given to add_pipe)")
        self.tagger = load_tagger(model_path, threads)
        self.lookahead = int(lookahead)
        self.threshold = float(threshold)
        self.thresholds = {label: float((label_thresholds or {}).get(label, threshold)) for label in LABELS}

    def __call__(self, doc):  # (Doc) -> Doc
        return self._set(doc, *self.tagger.analyse(doc.text))

    def pipe(self, docs, batch_size: int = 32):  # (Iterable[Doc]) -> Iterator[Doc]
        """Tag a stream of docs, the model running on a thread of its own ``lookahead`` docs ahead, so that
        it reads the next texts while spaCy and the later components work on earlier docs (the model
        needs only the text, and onnxruntime runs without the GIL). Docs come out in order, each as
        ``__call__`` would make it. In a worker of a parallel build (:func:`default_threads` is 1: the
        sibling workers use the other cores) the model runs in the calling thread."""
        if self.lookahead <= 0 or default_threads() <= 1:
            yield from map(self, docs)
            return
        from collections import deque
        from concurrent.futures import ThreadPoolExecutor

        def finish(done, future):  # (Doc, Future) -> Doc
            return self._set(done, *future.result())

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paperkg-tagger")
        try:
            waiting: deque = deque()
            for doc in docs:
                waiting.append((doc, pool.submit(self.tagger.analyse, doc.text)))
                if len(waiting) > self.lookahead:
                    yield finish(*waiting.popleft())
            while waiting:
                yield finish(*waiting.popleft())
        finally:  # a stream left early, or an error: the texts read ahead are not tagged in vain
            pool.shutdown(wait=True, cancel_futures=True)

    def _set(self, doc, spans: list[TagSpan], scores: TokenScores):  # (Doc, ...) -> Doc
        out = []
        for a, b, label, confidence in spans:
            if confidence < self.thresholds[label]:
                continue
            span = doc.char_span(a, b, alignment_mode="expand")
            if span is not None and span.text.strip() and _balanced(span.text):  # "VC(C" is no name
                out.append((span.start_char, span.end_char, label, confidence))
        doc._.model_scores = scores
        doc._.model_spans = sorted(set(out))
        return doc


def make_tagger_component(nlp, name: str, model_path: str | None, threshold: float, threads: int,
                          label_thresholds: dict[str, float], lookahead: int) -> TaggerComponent:
    """Factory of ``paperkg_entity_tagger`` (``model_path`` None: the tagger shipped in the package;
    ``lookahead`` 0: ``nlp.pipe`` runs the model in the calling thread)."""
    return TaggerComponent(model_path, threshold, threads, label_thresholds, lookahead)


def register() -> None:
    """Register the ``paperkg_entity_tagger`` factory with spaCy (idempotent)."""
    from spacy.language import Language

    if not Language.has_factory("paperkg_entity_tagger"):
        Language.factory("paperkg_entity_tagger",
                         default_config={"model_path": None, "threshold": 0.0, "threads": 0,
                                         "label_thresholds": {}, "lookahead": 64})(make_tagger_component)
