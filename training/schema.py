"""The annotation schema of the training corpus and its validator (pure functions, no I/O).

An annotation is one JSON object per record, in the shape of the project's gold files (see
``training/CONVENTIONS.md``). :func:`problems` lists everything wrong with one annotation against
its text; an empty list means it is valid.
"""
from __future__ import annotations

import re
from typing import Any

ENTITY_LISTS = ("methods", "datasets", "tasks", "metrics")
PROPOSE_TYPES = ("Method", "Dataset", "Metric")
RELATIONS = ("comparesWith", "evaluatedOn", "extends", "hasComponent", "appliedTo")
MODALITIES = (
    "EEG", "iEEG", "fMRI", "ECG", "MEG", "neural recordings", "image", "video", "text", "audio",
    "speech", "time series", "tabular", "graph", "point cloud", "set", "molecule",
    "protein sequence", "protein structure", "crystal structure", "atomistic (materials)",
    "gene expression", "spatial transcriptomics", "radar", "weather/climate", "geospatial",
    "robot actions", "PDE solutions", "dialogue", "behavioral video",
)
KEYS = ("id", "name", "proposes", "methods", "datasets", "modalities", "tasks", "metrics", "code",
        "results", "relations", "notes")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def forms(item: dict[str, Any]) -> list[str]:
    """The label and aliases of an item, label first."""
    return [item["label"], *item.get("aliases", [])]


def all_labels(ann: dict[str, Any]) -> set[str]:
    """Every label of an annotation's items (any list, proposes included)."""
    out = {it["label"] for key in ("proposes", *ENTITY_LISTS) for it in ann.get(key, [])
           if isinstance(it, dict) and isinstance(it.get("label"), str)}
    if isinstance(ann.get("name"), str):
        out.add(ann["name"])
    return out


def _item_problems(where: str, item: Any, text: str, title: str, allow_title: bool) -> list[str]:
    if not isinstance(item, dict) or not isinstance(item.get("label"), str):
        return [f"{where}: an item must be {{'label': str, 'aliases': [str]}}, got {item!r}"]
    aliases = item.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        return [f"{where} {item['label']!r}: aliases must be a list of strings"]
    out = []
    for form in forms(item):
        if not form.strip():
            out.append(f"{where} {item['label']!r}: empty form")
        elif form not in text and not (allow_title and form in title):
            out.append(f"{where} {item['label']!r}: form {form!r} does not occur verbatim in the "
                       f"{'title or abstract' if allow_title else 'abstract'}")
    if len(set(forms(item))) != len(forms(item)):
        out.append(f"{where} {item['label']!r}: an alias repeats the label or another alias")
    return out


def problems(ann: dict[str, Any], text: str, title: str = "") -> list[str]:
    """Everything wrong with annotation ``ann`` of abstract ``text`` (titled ``title``)."""
    out: list[str] = []
    unknown = set(ann) - set(KEYS)
    if unknown:
        out.append(f"unknown keys {sorted(unknown)}; allowed: {', '.join(KEYS)}")
    for key in ("proposes", *ENTITY_LISTS, "modalities", "code", "results", "relations"):
        if not isinstance(ann.get(key, []), list):
            out.append(f"{key} must be a list")
            return out
    name = ann.get("name")
    if name is not None and (not isinstance(name, str) or (name not in text and name not in title)):
        out.append(f"name {name!r} does not occur verbatim in the title or abstract")
    for item in ann.get("proposes", []):
        out += _item_problems("proposes", item, text, title, allow_title=True)
        if isinstance(item, dict) and item.get("type") not in PROPOSE_TYPES:
            out.append(f"proposes {item.get('label')!r}: type {item.get('type')!r} is not one of "
                       f"{', '.join(PROPOSE_TYPES)}")
    for key in ENTITY_LISTS:
        seen: set[str] = set()
        for item in ann.get(key, []):
            out += _item_problems(key, item, text, title, allow_title=False)
            if isinstance(item, dict) and isinstance(item.get("label"), str):
                if item["label"].lower() in seen:
                    out.append(f"{key}: duplicate item {item['label']!r}")
                seen.add(item["label"].lower())
    mods = ann.get("modalities", [])
    for m in mods:
        if m not in MODALITIES:
            out.append(f"modality {m!r} is not a term of the list ({', '.join(MODALITIES)})")
    if len(set(mods)) != len(mods):
        out.append("modalities: duplicate term")
    for url in ann.get("code", []):
        if not isinstance(url, str) or url not in text:
            out.append(f"code {url!r} does not occur verbatim in the abstract")
    labels = all_labels(ann)
    for res in ann.get("results", []):
        if not isinstance(res, dict) or not isinstance(res.get("value"), str):
            out.append(f"result {res!r}: must be {{'metric', 'value', 'dataset'}} with a string value")
            continue
        nums = _NUMBER.findall(res["value"])
        if not nums or any(n not in text for n in nums):
            out.append(f"result value {res['value']!r}: its number is not in the abstract")
        if res.get("metric") not in labels:
            out.append(f"result metric {res.get('metric')!r} is not the label of an annotated item")
        if res.get("dataset") is not None and res.get("dataset") not in labels:
            out.append(f"result dataset {res.get('dataset')!r} is not the label of an annotated item")
    for rel in ann.get("relations", []):
        if not (isinstance(rel, list) and len(rel) == 3 and all(isinstance(x, str) for x in rel)):
            out.append(f"relation {rel!r}: must be [subject, relation, object]")
            continue
        s, r, o = rel
        if r not in RELATIONS:
            out.append(f"relation {rel!r}: {r!r} is not one of {', '.join(RELATIONS)}")
        for side in (s, o):
            if side not in labels:
                out.append(f"relation {rel!r}: {side!r} is not the label of an annotated item")
    return out
