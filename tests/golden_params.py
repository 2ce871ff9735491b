"""Parameters the golden tests (and the benchmark's defaults) give each saved query that takes any."""

GOLDEN_PARAMS: dict[str, dict[str, str]] = {
    "papers-using": {"entity": "transformers"},  # an alias, in another case than the label
    "entity-aliases": {"entity": "ConvNet"},
    "link-provenance": {"paper": "a1a1a1a1a1a1a1a1", "entity": "EEG"},  # the 16-hex id, a label
    "paper-proposes": {"paper": "SpeechBench: a benchmark for robust speech recognition"},  # the title
    "similar-papers": {"paper": "https://w3id.org/paperkg/id/paper/a1a1a1a1a1a1a1a1"},
    "methods-for-task": {"entity": "Image Classification"},
    "results-on-dataset": {"entity": "id:dataset/tuab"},
    "compares-with": {"entity": "biot"},  # a label in another case
    "method-lineage": {"entity": "id:method/transformer"},
}
