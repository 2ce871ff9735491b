"""Zero-width and bidi control characters do not change what is extracted, and offsets stay right."""
from __future__ import annotations

from dataclasses import astuple

from hypothesis import given, settings
from hypothesis import strategies as st

from kg.extract import extract_texts
from kg.extract.invisible import BIDI_CLOSER, INVISIBLE, bidi_pairs, strip_invisible, visible

CLEAN = ("We propose HyperFormer, a Transformer for EEG classification. On TUAB, HyperFormer reaches 81.2% "
         "balanced accuracy, outperforming BIOT and LaBraM on sleep staging. We also evaluate on ImageNet.")
#: each replacement hides invisible characters inside or around a word the extractor must find
DIRTY = (CLEAN.replace("Transformer", "Trans\u200bformer")
         .replace("EEG", "E\u200dEG")
         .replace("TUAB", "\u2067TUAB\u2069")
         .replace("BIOT", "BI\u00adOT")
         .replace("balanced", "\u200ebalanced")
         .replace("ImageNet", "\ufeffImage\u2060Net")
         .replace("sleep staging", "\u202bsleep\u202c staging"))


def comparable(ex, text: str) -> list[tuple]:
    """The mentions and results of an extraction with their text as the reader sees it, offsets left out."""
    mentions = sorted((m.type, m.text, visible(text[m.start:m.end]), m.rule, m.proposed) for m in ex.mentions)
    results = sorted((r.metric, r.value, r.dataset, r.method, visible(text[r.start:r.end])) for r in ex.results)
    return [mentions, results, ex.name, len(ex.sentences)]


def test_same_entities_with_invisible_characters(nlp) -> None:
    clean, dirty = extract_texts([CLEAN, DIRTY], nlp)
    assert DIRTY != CLEAN and visible(DIRTY) == CLEAN
    assert comparable(clean, CLEAN) == comparable(dirty, DIRTY)
    found = {m.text for m in dirty.mentions}
    assert {"Transformer", "EEG", "TUAB", "BIOT", "ImageNet"} <= found
    # every offset indexes the text as given: an anchor is the mention's text plus invisible characters only
    for m in dirty.mentions:
        assert visible(DIRTY[m.start:m.end]) == m.text or m.text in visible(DIRTY[m.start:m.end])
        assert DIRTY[m.start] not in INVISIBLE or DIRTY[m.start] in BIDI_CLOSER


def test_anchor_never_cuts_a_bidi_pair(nlp) -> None:
    """"sleep staging" starts inside an embedding that closes after "sleep": the anchor holds both ends."""
    dirty, = extract_texts([DIRTY], nlp)
    spans = [DIRTY[m.start:m.end] for m in dirty.mentions if m.text == "sleep staging"]
    assert spans and all(s.startswith("\u202b") and "\u202c" in s for s in spans)
    for m in dirty.mentions:
        anchor = DIRTY[m.start:m.end]
        opened = sum(anchor.count(c) for c in BIDI_CLOSER)
        assert opened == anchor.count("\u202c") + anchor.count("\u2069"), f"unbalanced anchor {anchor!r}"


WORDS = st.text(alphabet="abcXYZ .", min_size=1, max_size=40)


@st.composite
def with_invisibles(draw) -> tuple[str, str]:
    """A visible text and the same text with invisible characters, bidi pairs balanced, inserted."""
    clean = draw(WORDS)
    out: list[str] = []
    for ch in clean:
        if draw(st.integers(0, 4)) == 0:
            opener = draw(st.sampled_from(sorted(BIDI_CLOSER)))
            out.append(opener + ch + BIDI_CLOSER[opener])
        elif draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from("\u200b\u200d\u00ad\u200e\ufeff")) + ch)
        else:
            out.append(ch)
    return clean, "".join(out)


@settings(max_examples=300, deadline=None)
@given(with_invisibles(), st.data())
def test_offsets_map_back_to_the_same_visible_text(texts: tuple[str, str], data) -> None:
    clean, dirty = texts
    stripped, where = strip_invisible(dirty)
    assert stripped == clean
    if where is None:
        assert dirty == clean
        return
    start = data.draw(st.integers(0, len(clean)))
    end = data.draw(st.integers(start, len(clean)))
    a, b = where.span(start, end)
    assert 0 <= a <= b <= len(dirty)
    assert visible(dirty[a:b]) == clean[start:end]
    pairs = bidi_pairs(dirty)
    assert all(a <= pairs[i] < b for i in range(a, b) if i in pairs), "the span cuts a bidi pair"


def test_clean_text_is_passed_through() -> None:
    assert strip_invisible(CLEAN) == (CLEAN, None)
    assert astuple(strip_invisible("a\u200bb")[1])[1] == (0, 2)  # type: ignore[index]
