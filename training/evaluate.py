"""Score extraction variants side by side with the shared scorer: corpus splits and the dev golds.

    python -m training.evaluate --corpus ../shared/data/abstracts.jsonl.gz --eval ../shared/eval \
        --variant rules --variant model --split dev

For each variant (a configuration of the ``paperkg_entities`` stage, :data:`VARIANTS`) the graph of
each evaluation set is built in this process with ``kg.build`` (one worker, no cache) and scored by
``score.py`` from ``--eval``. The sets: the corpus split(s) given by ``--split`` (``test`` only to
report, never to choose), ``gold_dev_corpus.json`` (``dev_corpus60.jsonl``) and ``gold_dev.json``
(the first seed file). Prints one Markdown table per set; ``--json`` writes every figure.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kg.extract.components import HEURISTIC_RULES
from training.corpus import ANNOTATIONS, as_gold, read_corpus, read_standoff

ROOT = Path(__file__).resolve().parents[1]

#: The heuristic rules: noun phrases, gerunds, task frames, capitalised terms, coined names.
NOISY = list(HEURISTIC_RULES)

#: name -> the ``paperkg_entities`` configuration it runs.
VARIANTS: dict[str, dict[str, Any]] = {
    "rules": {"use_model": False},
    "model+rules": {"use_model": True, "drop_rules": []},
    "model+core-rules": {"use_model": True, "drop_rules": NOISY},
    "rules-confirmed": {"use_model": True, "drop_rules": [], "add_types": [], "confirm_rules": NOISY},
    "rules-confirmed+model-metrics": {"use_model": True, "drop_rules": [], "add_types": ["Metric"],
                                      "confirm_rules": NOISY},
    "rules-confirmed+model-methods": {"use_model": True, "drop_rules": [], "add_types": ["Method"],
                                      "confirm_rules": NOISY},
    "rules-confirmed+model-tasks": {"use_model": True, "drop_rules": [], "add_types": ["Task"],
                                    "confirm_rules": NOISY},
    "model+rules-veto0.1": {"use_model": True, "drop_rules": [], "veto_rules": NOISY, "veto_below": 0.1},
    "model+rules-veto0.2": {"use_model": True, "drop_rules": [], "veto_rules": NOISY, "veto_below": 0.2},
    "model+rules-veto0.3": {"use_model": True, "drop_rules": [], "veto_rules": NOISY, "veto_below": 0.3},
    "rules-veto0.2": {"use_model": True, "drop_rules": [], "add_types": [], "veto_rules": NOISY, "veto_below": 0.2},
    "model+rules-veto0.1-not-tasks": {"use_model": True, "drop_rules": [], "veto_rules": NOISY, "veto_below": 0.1,
                                      "veto_types": ["Method", "Dataset", "Metric"]},
    "model+rules-veto0.2-not-tasks": {"use_model": True, "drop_rules": [], "veto_rules": NOISY, "veto_below": 0.2,
                                      "veto_types": ["Method", "Dataset", "Metric"]},
}
GENERIC = ["phrase", "gerund-phrase", "title-case", "name"]
VARIANTS.update({
    "model-fills-gaps": {"use_model": True, "drop_rules": [], "gaps_only": True},
    "model-fills-gaps+veto0.2": {"use_model": True, "drop_rules": [], "gaps_only": True, "veto_rules": GENERIC,
                                 "veto_below": 0.2, "veto_types": ["Method", "Dataset", "Metric"]},
    "model-fills-gaps+veto0.1": {"use_model": True, "drop_rules": [], "gaps_only": True, "veto_rules": GENERIC,
                                 "veto_below": 0.1, "veto_types": ["Method", "Dataset", "Metric"]},
})
VARIANTS["model-fills-gaps+veto0.2-phrases"] = {
    "use_model": True, "drop_rules": [], "gaps_only": True, "veto_rules": ["phrase", "gerund-phrase", "title-case"],
    "veto_below": 0.2, "veto_types": ["Method", "Dataset", "Metric"]}
#: The variant paperkg ships (kg.extract.model.COMPONENT_CONFIG, with the span model's threshold 0.95).
SHIPPED = "model-fills-gaps+veto0.2-phrases"
COLUMNS = ("all_entities", "Method", "Dataset", "Modality", "Task", "Metric", "proposes", "results")


def build_graph(inputs: list[Path], out: Path, variant: dict[str, Any], model: Path | None = None,
                beam_width: int = 1, threshold: float = 0.0) -> Path:
    """Build ``inputs`` with the entity stage configured as ``variant`` (and the entity model at ``model``,
    None: the shipped one); the path of the Turtle."""
    from kg import build as kg_build
    from kg.extract import model as kg_model

    kg_model.COMPONENT_CONFIG["paperkg_entities"] = dict(variant)
    kg_model.COMPONENT_CONFIG["paperkg_entity_model"] = {"model_path": str(model) if model else None,
                                                        "beam_width": beam_width, "threshold": threshold}
    kg_model._load_nlp.cache_clear()
    kg_build.build(inputs, out, workers=1, views=False, cache=False)
    return out / "kg.ttl"


def score(scorer: Path, gold: Path, graph: Path, corpus: Path | None) -> dict[str, Any]:
    """The scorer's JSON figures for ``graph`` against ``gold``."""
    cmd = [sys.executable, str(scorer), str(gold), str(graph), *map(str, sorted((ROOT / "ontology").glob("*.ttl"))),
           "--json"]
    if corpus is not None:
        cmd += ["--corpus", str(corpus)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def corpus_set(corpus: Path, split: str, work: Path, annotations: Path = ANNOTATIONS) -> tuple[Path, Path]:
    """The texts (JSONL) and the gold file of a corpus split, written under ``work``."""
    entries = [e for _, _, e in read_standoff(sorted(annotations.glob("*.jsonl"))) if e["split"] == split]
    records = read_corpus(corpus, {e["id"] for e in entries})
    texts, gold = work / f"corpus_{split}.jsonl", work / f"corpus_gold_{split}.json"
    with texts.open("w", encoding="utf-8") as handle:
        for e in entries:
            r = records[e["id"]]
            handle.write(json.dumps({"id": r["id"], "title": r.get("title", ""), "abstract": r["abstract"]}) + "\n")
    gold.write_text(json.dumps(as_gold(entries)), encoding="utf-8")
    return texts, gold


def table(name: str, rows: dict[str, dict[str, Any]]) -> str:
    """One Markdown table: a row per variant, F1 per column (P/R for all entities)."""
    lines = [f"### {name}", "", "| variant | all P / R / F1 | " + " | ".join(COLUMNS[1:]) + " | name acc. |",
             "|---" * (len(COLUMNS) + 2) + "|"]
    for variant, fig in rows.items():
        a = fig["all_entities"]
        cells = [f"{a['precision']:.3f} / {a['recall']:.3f} / **{a['f1']:.3f}**"]
        cells += [f"{fig[c]['f1']:.3f}" for c in COLUMNS[1:]]
        lines.append(f"| {variant} | " + " | ".join(cells) + f" | {fig['name_accuracy']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--eval", type=Path, required=True, help="the folder of score.py and the dev golds")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS), help="default: all")
    parser.add_argument("--split", action="append", choices=["train", "dev", "test"], help="default: dev")
    parser.add_argument("--no-dev-golds", action="store_true", help="score the corpus split(s) only")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--annotations", type=Path, default=ANNOTATIONS, help="folder of standoff *.jsonl")
    parser.add_argument("--model", type=Path, help="the entity model to run (default: the shipped one)")
    parser.add_argument("--beam-width", type=int, default=1, help="the NER model's beam (1: greedy)")
    parser.add_argument("--threshold", type=float, default=0.0, help="the span model's minimum score")
    args = parser.parse_args(argv)
    scorer = args.eval / "score.py"
    work = Path(tempfile.mkdtemp(prefix="paperkg_eval_"))
    sets: dict[str, tuple[list[Path], Path, Path | None]] = {}
    for split in args.split or ["dev"]:
        texts, gold = corpus_set(args.corpus, split, work, args.annotations)
        sets[f"corpus {split} split"] = ([texts], gold, args.corpus)
    if not args.no_dev_golds:
        sets["gold_dev_corpus (60 abstracts)"] = ([args.eval / "dev_corpus60.jsonl"], args.eval / "gold_dev_corpus.json",
                                                  None)
        seed = sorted((ROOT / "seeds").glob("*.txt"))[0]
        sets["gold_dev (18 seed abstracts)"] = ([seed], args.eval / "gold_dev.json", None)
    figures: dict[str, dict[str, Any]] = {name: {} for name in sets}
    for variant in args.variant or list(VARIANTS):
        for name, (inputs, gold, corpus) in sets.items():
            started = time.perf_counter()
            graph = build_graph(inputs, work / f"{variant}-{len(figures[name])}-{abs(hash(name))}", VARIANTS[variant], args.model,
                                args.beam_width, args.threshold)
            figures[name][variant] = score(scorer, gold, graph, corpus)
            print(f"{variant} on {name}: all-entities F1 {figures[name][variant]['all_entities']['f1']:.3f} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    for name, rows in figures.items():
        print(table(name, rows) + "\n")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
