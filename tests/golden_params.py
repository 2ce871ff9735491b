"""Parameters the golden tests (and the benchmark's defaults) give each saved query that takes any."""

GOLDEN_PARAMS: dict[str, dict[str, str]] = {
    "papers-using": {"entity": "transformers"},  # an alias
    "entity-aliases": {"entity": "ConvNet"},
    "link-provenance": {"paper": "id:paper/a1a1a1a1a1a1a1a1", "entity": "EEG"},  # a prefixed name, a label
    "paper-proposes": {"paper": "SpeechBench: a benchmark for robust speech recognition"},  # the title
    "similar-papers": {"paper": "https://w3id.org/paperkg/id/paper/a1a1a1a1a1a1a1a1"},
    "methods-for-task": {"entity": "image classification"},
    "results-on-dataset": {"entity": "id:dataset/tuab"},
    "compares-with": {"entity": "biot"},  # a label in another case
    "method-lineage": {"entity": "id:method/transformer"},
    "coauthors": {"author": "Bo Sample"},  # a name as written
    "entity-by-year": {"type": "Dataset"},  # the optional type parameter given
}
