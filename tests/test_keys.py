"""Written forms and their keys: plurals fold, names keep their letters, and a coined name in capitals
is not another name's plural."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.keys import clean_label, norm_key, readable_key, singular


@pytest.mark.parametrize("plural, word", [
    ("networks", "network"), ("SAEs", "SAE"), ("GANs", "GAN"), ("ViTs", "ViT"), ("NeRFs", "NeRF"),
    ("BiLSTMs", "BiLSTM"), ("LoRAs", "LoRA"), ("probabilities", "probability"),
])
def test_plurals_fold(plural: str, word: str) -> None:
    assert singular(plural) == word
    assert norm_key(plural) == norm_key(word)


@pytest.mark.parametrize("word", ["GatedLens", "iOS", "series", "analysis", "loss", "VITS", "AdaGrads"])
def test_what_is_no_plural_stays(word: str) -> None:
    assert singular(word) == word


def test_a_name_in_capitals_is_not_a_mixed_case_plural() -> None:
    assert norm_key("VITS") != norm_key("ViTs")  # "VITS" (a method) is not "ViTs" (vision transformers)
    assert readable_key("equivariant uMLIPs") == "equivariant-umlip"


def test_a_phrase_in_title_case_keys_as_in_lower_case() -> None:
    assert norm_key("Binary Neural Networks") == norm_key("binary neural networks") == norm_key("binary neural network")
    assert readable_key("EEG foundation Models") == readable_key("EEG foundation models") == "eeg-foundation-model"
    assert norm_key("Markov Chains") == norm_key("Markov chain")
    # alone, a capitalised word may be a name that ends in s ("Atlas", "Adams"): its letters stay
    assert norm_key("Adams") != norm_key("Adam") and norm_key("Transformers") == "transformers"
    # a name inside a phrase keeps its letters ("ViTs" folds as a name's plural, "VITS" stays)
    assert norm_key("large ViTs") == norm_key("large ViT") and norm_key("large VITS") != norm_key("large ViTs")


def test_clean_label_drops_latex() -> None:
    assert clean_label("$\\mathtt{VITS}$") == "VITS"
    assert clean_label("  graph\n neural  networks, ") == "graph neural networks"
    assert clean_label("Dynamic Gated Neuron~") == "Dynamic Gated Neuron"  # LaTeX's unbreakable space before "(DGN)"


_NAME = st.from_regex(r"[A-Z][a-z]{1,4}[A-Z]{1,3}", fullmatch=True)  # "ViT", "NeRF", "LLaMA"-like


@given(_NAME)
def test_a_names_plural_keys_as_the_name(name: str) -> None:
    assert norm_key(name + "s") == norm_key(name)
    assert readable_key(f"large {name}s") == readable_key(f"large {name}")


@given(st.text(min_size=1, max_size=40))
def test_keys_are_case_free_and_spaceless(text: str) -> None:
    key = norm_key(text)
    assert key == key.lower()
    assert not any(c.isspace() for c in key)
    assert readable_key(text).replace("-", "") == key
