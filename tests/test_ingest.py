"""Tests of kg.ingest: reading seed text, JSONL(.gz), CSV and TSV abstracts."""
from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import InputError
from kg.ingest import READERS, Author, Record, SkippedRecord, SourceRef, detect_format, read_records
from kg.ingest.seed import looks_like_header

DATA = Path(__file__).parent / "data" / "ingest"
REPO = Path(__file__).parent.parent


def read(paths, **kwargs) -> tuple[list[Record], list[SkippedRecord]]:
    skipped: list[SkippedRecord] = []
    records = list(read_records(paths, on_skip=skipped.append, **kwargs))
    return records, skipped


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def in_repo(monkeypatch) -> Path:
    monkeypatch.chdir(REPO)
    return REPO


# --- the API ---------------------------------------------------------------

def test_registry_names_every_format():
    assert list(READERS) == ["seed", "jsonl", "csv", "tsv", "bibtex", "ris", "csl-json", "openalex", "arxiv", "s2"]


def test_records_are_frozen():
    record = Record("x", SourceRef("f", 0, 1))
    with pytest.raises(AttributeError):
        record.abstract = "y"  # type: ignore[misc]


# --- seed format -----------------------------------------------------------

def test_seed_with_header(in_repo):
    records, skipped = read(["tests/data/ingest/seed_header.txt"])
    assert skipped == []
    assert [r.abstract for r in records] == [
        "We propose FooNet, a model for <b>graphs</b>.\nIt has two lines.",
        "Second abstract with LaTeX $\\mathcal{O}(n^2)$ and emoji 🚀.",
    ]
    assert [r.source for r in records] == [
        SourceRef("tests/data/ingest/seed_header.txt", 0, 3),
        SourceRef("tests/data/ingest/seed_header.txt", 1, 8),
    ]
    assert all(r.id is None and r.title is None and r.authors == () for r in records)


def test_seed_without_header(in_repo):
    records, _ = read([DATA / "plain.txt"])  # absolute path under cwd -> relative display
    assert [r.abstract for r in records] == [
        "We study the first problem in depth.",
        "We study the second problem, which is harder.",
    ]
    assert [(r.source.file, r.source.position, r.source.line) for r in records] == [
        ("tests/data/ingest/plain.txt", 0, 1), ("tests/data/ingest/plain.txt", 1, 3)]


def test_real_seed_layout_is_header_then_paragraphs(in_tmp):
    text = "ICLR 2026 论文列表\n\nFirst abstract.\n\nSecond abstract.\n"
    records, _ = read([write(in_tmp / "s.txt", text)])
    assert [(r.abstract, r.source.position, r.source.line) for r in records] == [
        ("First abstract.", 0, 3), ("Second abstract.", 1, 5)]


@pytest.mark.parametrize("line, expected", [
    ("ICLR 2026 论文列表", True),
    ("Accepted papers:", True),
    ("We propose a new method.", False),
    ("这是一个句子。", False),
    ("Is this a question?", False),
    ("A quoted sentence.\"", False),
    ("x" * 130, False),
    ("two\nlines", False),
])
def test_header_decision(line, expected):
    assert looks_like_header(line) is expected


def test_seed_header_can_be_forced(in_tmp):
    path = write(in_tmp / "s.txt", "Short title line\n\nAn abstract.\n")
    assert [r.abstract for r in read([path])[0]] == ["An abstract."]
    assert [r.abstract for r in read([path], seed_header=False)[0]] == ["Short title line", "An abstract."]
    plain = write(in_tmp / "p.txt", "First abstract.\n\nSecond.\n")
    assert [r.abstract for r in read([plain], seed_header=True)[0]] == ["Second."]


def test_seed_crlf_and_bom(in_tmp):
    path = in_tmp / "crlf.txt"
    path.write_bytes("\ufeffVenue 2024\r\n\r\nLine one\r\nline two.\r\n  \r\nOther.\r\n".encode())
    records, _ = read([path])
    assert [(r.abstract, r.source.line) for r in records] == [("Line one\r\nline two.", 3), ("Other.", 6)]


def test_seed_keeps_odd_unicode_and_markup_exactly(in_tmp):
    odd = "\u00a0NBSP lead, zero\u200bwidth, \u200fRTL, e\u0301 combining, 👩‍🔬, <script>x()</script> \\frac{a}{b}\u00a0"
    records, _ = read([write(in_tmp / "u.txt", f"Header\n\n  {odd}  \n")])
    assert [r.abstract for r in records] == [odd]


# --- JSONL -----------------------------------------------------------------

def test_jsonl_fields(in_repo):
    records, skipped = read(["tests/data/ingest/records.jsonl"])
    assert skipped == []
    first, second = records
    assert first == Record(
        abstract="We introduce BarNet for segmentation.",
        source=SourceRef("tests/data/ingest/records.jsonl", 0, 1),
        id="p1", title="BarNet", authors=(Author("Ada Lovelace"), Author("Alan Turing")), year=2024, venue="ICLR",
        keywords=("segmentation", "vision"),
    )
    assert second.abstract == "Second abstract <script>alert(1)</script> kept."
    assert second.source == SourceRef("tests/data/ingest/records.jsonl", 1, 3)  # blank line 2 is no record
    assert [a.name for a in second.authors] == ["A. One", "B. Two", "C. Three"]
    assert second.year == 2023 and second.keywords == ("nlp", "parsing") and second.id is None


def test_jsonl_gz(in_tmp):
    path = in_tmp / "r.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8", newline="") as fh:
        fh.write('{"abstract": "Zipped one.", "id": 7}\r\n\r\n{"abstract": "Zipped two."}\r\n')
    assert detect_format(path) == "jsonl"
    records, _ = read([path])
    assert [(r.abstract, r.id, r.source) for r in records] == [
        ("Zipped one.", "7", SourceRef("r.jsonl.gz", 0, 1)), ("Zipped two.", None, SourceRef("r.jsonl.gz", 1, 3))]


def test_jsonl_bad_lines_are_skipped_and_positions_stay_stable(in_tmp):
    lines = [
        '{"abstract": "good zero"}',
        '{"abstract": "broken',
        '[1, 2]',
        '{"title": "no abstract"}',
        '{"abstract": "   "}',
        '{"abstract": "bad year", "year": "soon"}',
        '{"abstract": "good six"}',
    ]
    records, skipped = read([write(in_tmp / "r.jsonl", "\n".join(lines) + "\n")])
    assert [(r.abstract, r.source.position, r.source.line, r.year) for r in records] == [
        ("good zero", 0, 1, None), ("bad year", 5, 6, None), ("good six", 6, 7, None)]
    assert [(s.source.position, s.source.line) for s in skipped] == [(1, 2), (2, 3), (3, 4), (4, 5)]
    assert skipped[0].reason.startswith("line 2: invalid JSON: ")
    assert "expected a JSON object" in skipped[1].reason
    assert "no `abstract`" in skipped[2].reason and "title" in skipped[2].reason
    assert "empty `abstract`" in skipped[3].reason
    # a bad value costs its field, never the abstract
    assert [r.dropped for r in records] == [(), ("`year` must be a four-digit year like 2024, got 'soon'",), ()]


def test_jsonl_skips_before_first_good_line_are_reported(in_tmp):
    records, skipped = read([write(in_tmp / "r.jsonl", 'oops\n{"abstract": "ok"}\n')])
    assert [r.abstract for r in records] == ["ok"]
    assert [s.reason.split(":")[0] for s in skipped] == ["line 1"]


def test_jsonl_every_line_malformed_is_an_error(in_tmp):
    write(in_tmp / "bad.jsonl", "{not json\n{still not\n")
    with pytest.raises(InputError, match=r"bad\.jsonl.*line 1: invalid JSON"):
        read(["bad.jsonl"])


# --- CSV / TSV -------------------------------------------------------------

def test_csv_fields_case_insensitive_and_multiline(in_repo):
    records, skipped = read(["tests/data/ingest/records.csv"])
    assert skipped == []
    assert records[0] == Record(
        abstract="We propose a method, with a comma.", source=SourceRef("tests/data/ingest/records.csv", 0, 2),
        id="c1", title="CsvPaper", authors=(Author("Ada Lovelace"), Author("Alan Turing")), year=2022, venue="NeurIPS",
        keywords=("a", "b"),
    )
    assert records[1] == Record('A multi-line\nabstract with "quotes".', SourceRef("tests/data/ingest/records.csv", 1, 3),
                                id="c2")


def test_tsv(in_repo):
    records, _ = read(["tests/data/ingest/records.tsv"])
    assert [(r.id, r.abstract, r.year, r.source.line) for r in records] == [
        ("t1", "We evaluate on ImageNet.", 2021, 2), ("t2", "Second TSV abstract.", None, 3)]


def test_csv_bad_rows_are_skipped(in_tmp):
    text = "id,abstract\r\na,first\r\nb,\r\nc,x,extra\r\n\r\nd,\"bad\"quote\r\ne,last\r\n"
    records, skipped = read([write(in_tmp / "r.csv", text)])
    assert [(r.id, r.source.position, r.source.line) for r in records] == [("a", 0, 2), ("e", 4, 7)]
    assert [(s.source.position, s.reason.split(":")[0]) for s in skipped] == [(1, "line 3"), (2, "line 4"), (3, "line 6")]
    assert "empty `abstract`" in skipped[0].reason
    assert "3 fields but the header has 2" in skipped[1].reason
    assert "malformed CSV" in skipped[2].reason


@pytest.mark.parametrize("column", ["summary", "Text"])
def test_csv_abstract_alias(in_tmp, column):
    records, _ = read([write(in_tmp / "r.csv", f"id,{column}\n1,Alias abstract.\n")])
    assert [r.abstract for r in records] == ["Alias abstract."]


def test_csv_abstract_wins_over_alias(in_tmp):
    records, _ = read([write(in_tmp / "r.csv", "text,abstract\nnot this,This one.\n")])
    assert [r.abstract for r in records] == ["This one."]


def test_csv_two_aliases_are_ambiguous(in_tmp):
    write(in_tmp / "r.csv", "summary,text\na,b\n")
    with pytest.raises(InputError, match=r"r\.csv.*summary and text"):
        read(["r.csv"])


def test_csv_without_abstract_column(in_tmp):
    write(in_tmp / "r.csv", "id,title\n1,x\n")
    with pytest.raises(InputError, match=r"r\.csv has no abstract column \(columns found: 'id', 'title'\)"):
        read(["r.csv"])


@pytest.mark.parametrize("fmt, text", [("csv", '{"id": "1", "abstract": "We study X, Y and Z."}\n'),
                                       ("tsv", '[\n  {"id": "1", "abstract": "We study X."}\n]\n')])
def test_json_read_as_csv_is_named_json_not_split_into_columns(in_tmp, fmt, text):
    write(in_tmp / "r.json", text)
    with pytest.raises(InputError, match=rf"r\.json is not {fmt.upper()}: its first line is JSON.*--format jsonl") as err:
        read(["r.json"], fmt=fmt)
    assert "columns found" not in str(err.value)


def test_csv_header_only(in_tmp):
    write(in_tmp / "r.csv", "id,abstract\n\n")
    with pytest.raises(InputError, match=r"r\.csv has a header row but no data rows"):
        read(["r.csv"])


def test_csv_huge_field_beyond_csv_module_limit(in_tmp):
    big = "y" * 300_000
    records, skipped = read([write(in_tmp / "r.csv", f"abstract\n{big}\nsmall\n")], max_chars=400_000)
    assert [len(r.abstract) for r in records] == [300_000, 5]


# --- directories, order, paths ---------------------------------------------

def test_directory_of_mixed_files(in_repo):
    records, _ = read(["tests/data/ingest/mixed"])
    assert [(r.source.file, r.abstract) for r in records] == [
        ("tests/data/ingest/mixed/a_seed.txt", "Mixed seed abstract one."),
        ("tests/data/ingest/mixed/b.jsonl", "Mixed jsonl abstract."),
        ("tests/data/ingest/mixed/c.csv", "Mixed csv abstract."),
    ]


def test_a_directory_s_readme_is_no_input(in_tmp):
    (in_tmp / "d").mkdir()
    write(in_tmp / "d" / "README.md", "# About these abstracts\n")
    write(in_tmp / "d" / "LICENSE.txt", "CC BY 4.0\n")
    write(in_tmp / "d" / "mine.csv", "abstract\nA csv abstract.\n")
    records, _ = read(["d"])
    assert [r.source.file for r in records] == ["d/mine.csv"]
    with pytest.raises(InputError, match="README.md holds only a header line"):
        read(["d/README.md"])  # named, it is read like any seed file


def test_directory_with_format_keeps_matching_files(in_repo):
    records, _ = read(["tests/data/ingest/mixed"], fmt="jsonl")
    assert [r.source.file for r in records] == ["tests/data/ingest/mixed/b.jsonl"]


def test_paths_order_and_no_repeats(in_repo):
    records, _ = read(["tests/data/ingest/records.tsv", "tests/data/ingest/plain.txt",
                       "./tests/data/ingest/records.tsv"])
    assert [r.source.file for r in records] == ["tests/data/ingest/records.tsv"] * 2 + ["tests/data/ingest/plain.txt"] * 2


def test_display_outside_cwd_is_kept_as_given(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    write(tmp_path / "in.txt", "One abstract.\n")
    monkeypatch.chdir(tmp_path / "sub")
    assert read([os.path.join("..", "in.txt")])[0][0].source.file == "../in.txt"


def test_empty_directory_is_an_error(in_tmp):
    (in_tmp / "d").mkdir()
    write(in_tmp / "d" / "x.pdf", "no")
    with pytest.raises(InputError, match=r"directory d holds no supported files"):
        read(["d"])


# --- bad input -------------------------------------------------------------

def test_missing_path(in_tmp):
    with pytest.raises(InputError, match=r"^no such file or directory: nope\.txt; check the path$"):
        read(["nope.txt"])


@pytest.mark.parametrize("name, text", [
    ("e.txt", ""), ("w.txt", " \n\t\r\n\n"), ("e.jsonl", "\n\n"), ("e.csv", "\n"), ("e.tsv", "  \n"),
])
def test_empty_files(in_tmp, name, text):
    write(in_tmp / name, text)
    with pytest.raises(InputError, match=rf"^{name.replace('.', '[.]')} is empty"):
        read([name])


def test_header_only_seed(in_tmp):
    write(in_tmp / "h.txt", "ICLR 2026 论文列表\n\n")
    with pytest.raises(InputError, match=r"h\.txt holds only a header line"):
        read(["h.txt"])


@pytest.mark.parametrize("name", ["latin.txt", "latin.jsonl", "latin.csv"])
def test_non_utf8_names_line_and_byte(in_tmp, name):
    lines = {"latin.txt": b"Header\n\nGood line.\n\ncaf\xe9 au lait\n",
             "latin.jsonl": b'{"abstract": "ok"}\n{"abstract": "ok"}\n\n\n{"abstract": "caf\xe9"}\n',
             "latin.csv": b"abstract\nok\nok\nok\ncaf\xe9\n"}[name]
    (in_tmp / name).write_bytes(lines)
    with pytest.raises(InputError, match=rf"^{name.replace('.', '[.]')} is not UTF-8 text \(byte 0xe9 at line 5, "
                                         r"byte offset \d+\); convert it with `iconv"):
        read([name])


def test_binary_file(in_tmp):
    (in_tmp / "img.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(InputError, match=r"img\.txt is not UTF-8 text \(byte 0x89 at line 1, byte offset 0\)"):
        read(["img.txt"])


def test_nul_bytes_are_binary(in_tmp):
    (in_tmp / "n.txt").write_bytes(b"Header\n\nfine\x00\x00\n")
    with pytest.raises(InputError, match=r"n\.txt is not UTF-8 text \(byte 0x00 at line 3"):
        read(["n.txt"])


def test_non_utf8_error_with_forced_format_names_line(in_tmp):
    (in_tmp / "x.data").write_bytes(b'{"abstract": "ok"}\n{"abstract": "\xff"}\n')
    with pytest.raises(InputError, match=r"x\.data is not UTF-8 text \(byte 0xff at line 2, byte offset 33\)"):
        read(["x.data"], fmt="jsonl")


def test_broken_gzip(in_tmp):
    data = gzip.compress(b'{"abstract": "x"}\n' * 100)
    (in_tmp / "t.jsonl.gz").write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"t\.jsonl\.gz is not a valid gzip file"):
        read(["t.jsonl.gz"], fmt="jsonl")


def test_unknown_format_name(in_tmp):
    write(in_tmp / "a.txt", "x.\n")
    with pytest.raises(InputError, match=r"unknown input format 'xml'.*seed, jsonl, csv, tsv"):
        read(["a.txt"], fmt="xml")


@pytest.mark.parametrize("name, make", [
    ("big.txt", lambda a: f"Header\n\nsmall one.\n\n{a}\n"),
    ("big.jsonl", lambda a: json.dumps({"abstract": "small one."}) + "\n" + json.dumps({"abstract": a}) + "\n"),
    ("big.csv", lambda a: f"abstract\nsmall one.\n{a}\n"),
])
def test_oversized_abstract_is_skipped_with_its_size(in_tmp, name, make):
    huge = "w" * 3_000_000
    records, skipped = read([write(in_tmp / name, make(huge))])
    assert [r.abstract for r in records] == ["small one."]
    assert len(skipped) == 1 and skipped[0].source.position == 1
    assert "3,000,000 characters, over the limit of 200,000" in skipped[0].reason


def test_max_chars_is_a_parameter(in_tmp):
    records, skipped = read([write(in_tmp / "a.txt", "abcdef.\n\nabc.\n")], max_chars=5)
    assert [r.abstract for r in records] == ["abc."] and len(skipped) == 1


def test_html_and_latex_kept_literally_in_every_format(in_tmp):
    text = '<p onclick="x">A &amp; B</p><script>alert("x")</script> $\\alpha_{i}$ \\cite{k}'
    write(in_tmp / "h.jsonl", json.dumps({"abstract": text}) + "\n")
    write(in_tmp / "h.csv", "abstract\n" + '"' + text.replace('"', '""') + '"\n')
    assert [r.abstract for r in read(["h.jsonl", "h.csv"])[0]] == [text, text]


# --- format detection ------------------------------------------------------

@pytest.mark.parametrize("name, text, expected", [
    ("a.txt", "Header\n\nAbstract.\n", "seed"),
    ("a.md", "Abstract.\n", "seed"),
    ("a.jsonl", '{"abstract": "x"}\n', "jsonl"),
    ("a.ndjson", '\n  {"abstract": "x"}\n', "jsonl"),
    ("a.JSONL", "not json at all\n", "jsonl"),  # extension decides when content says nothing
    ("a.csv", "abstract,id\nx,1\n", "csv"),
    ("a.csv", "title,venue\nx,y\n", "csv"),  # the reader then reports the missing column
    ("a.tsv", "abstract\tid\nx\t1\n", "tsv"),
    ("noext", '{"abstract": "x"}\n', "jsonl"),
    ("data.dat", "id,Abstract,year\n1,x,2020\n", "csv"),
    ("data.dat", "id\tabstract\n1\tx\n", "tsv"),
    ("a.txt", "Abstract\n\nWe propose X.\n", "seed"),  # a lone "Abstract" heading is no CSV header
    ("a.txt", "Abstract, we propose a very long thing here, and more.\n", "seed"),
])
def test_detect_format(in_tmp, name, text, expected):
    assert detect_format(write(in_tmp / name, text)) == expected


def test_detect_gzip_by_magic(in_tmp):
    (in_tmp / "blob").write_bytes(gzip.compress(b'{"abstract": "x"}\n'))
    assert detect_format(in_tmp / "blob") == "jsonl"


@pytest.mark.parametrize("name, data, says", [
    ("a.txt", b'{"abstract": "x"}\n', r"extension says seed but its first non-blank character is '\{'"),
    ("a.csv", b'{"abstract": "x"}\n', r"extension says csv"),
    ("a.jsonl", b"id,abstract\n1,x\n", r"extension says jsonl but its first line is a header row"),
    ("a.csv", b"id\tabstract\n1\tx\n", r"extension says csv .* means tsv"),
    ("a.txt", gzip.compress(b'{"abstract": "x"}\n'), r"extension says seed but it is gzip-compressed"),
    ("a.txt", b"id,abstract\n1,x\n", r"extension says seed .* csv"),
])
def test_detect_conflicts_ask_for_format(in_tmp, name, data, says):
    (in_tmp / name).write_bytes(data)
    with pytest.raises(InputError, match=rf"^{name.replace('.', '[.]')}: its {says}.*pass --format NAME "
                                         r"\(one of seed, jsonl, csv, tsv, bibtex, ris, csl-json, openalex, arxiv, s2\)"):
        detect_format(in_tmp / name)
    # the same file reads fine once the format is given (gzip only as jsonl)
    fmt = "jsonl" if data[:1] in (b"{", b"\x1f") else ("tsv" if b"\t" in data else "csv")
    assert read([name], fmt=fmt)[0][0].abstract == "x"


def test_detect_undecided_asks_for_format(in_tmp):
    write(in_tmp / "abstracts", "Header\n\nAbstract.\n")
    with pytest.raises(InputError, match=r"^cannot tell the format of abstracts .*pass --format NAME"):
        read(["abstracts"])


def test_detect_csv_or_tsv_header_without_extension_is_ambiguous(in_tmp):
    write(in_tmp / "one", "abstract\nx\n")  # one column: no content evidence at all
    with pytest.raises(InputError, match=r"cannot tell the format of one"):
        detect_format(in_tmp / "one")


def test_detection_errors_come_before_any_record(in_tmp):
    write(in_tmp / "good.txt", "Fine abstract.\n")
    write(in_tmp / "bad.txt", '{"abstract": "x"}\n')
    stream = read_records(["good.txt", "bad.txt"])
    with pytest.raises(InputError, match="bad.txt"):
        next(stream)


# --- properties ------------------------------------------------------------

_ascii_ws = " \t\r\n\f\v"
_line = st.text(
    # NUL is the one character a text file may not hold: it marks a binary file
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\x00"), min_size=1, max_size=40,
).filter(lambda s: s.strip(_ascii_ws) != "")
_paragraph = st.lists(_line, min_size=1, max_size=4).map("\n".join).map(lambda s: s.strip(_ascii_ws))


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(paragraphs=st.lists(_paragraph, min_size=1, max_size=8), crlf=st.booleans())
def test_seed_round_trip(tmp_path, paragraphs, crlf):
    eol = "\r\n" if crlf else "\n"
    body = (eol + eol).join(p.replace("\n", eol) for p in paragraphs)
    path = write(tmp_path / "rt.txt", "ICLR 2026 论文列表" + eol + eol + body + eol)
    records, skipped = read([path], seed_header=None)
    assert skipped == []
    assert [r.abstract for r in records] == [p.replace("\n", eol) for p in paragraphs]
    assert [r.source.position for r in records] == list(range(len(paragraphs)))
    lines = [3]
    for p in paragraphs[:-1]:
        lines.append(lines[-1] + p.count("\n") + 2)
    assert [r.source.line for r in records] == lines


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(abstracts=st.lists(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1).filter(lambda s: s.strip(_ascii_ws)),
    min_size=1, max_size=8,
), ensure_ascii=st.booleans(), gz=st.booleans())
def test_jsonl_round_trip(tmp_path, abstracts, ensure_ascii, gz):
    text = "".join(json.dumps({"abstract": a}, ensure_ascii=ensure_ascii) + "\n" for a in abstracts)
    path = tmp_path / ("rt.jsonl.gz" if gz else "rt.jsonl")
    path.write_bytes(gzip.compress(text.encode()) if gz else text.encode())
    records, skipped = read([path])
    assert skipped == []
    assert [r.abstract for r in records] == abstracts
    assert [(r.source.position, r.source.line) for r in records] == [(i, i + 1) for i in range(len(abstracts))]


def test_skipped_records_carry_a_kind_for_counting(tmp_path):
    """Every skip names its kind, so the build summary counts them without parsing the reason."""
    from kg.ingest import read_records

    path = tmp_path / "mixed.jsonl"
    path.write_text('{"abstract": "A fine abstract about graphs."}\nnot json\n[1, 2]\n{"title": "no abstract"}\n'
                    '{"abstract": "An abstract that is far too long for the limit."}\n', encoding="utf-8")
    skipped: list = []
    records = list(read_records([path], on_skip=skipped.append, max_chars=40))
    assert len(records) == 1
    assert [s.kind for s in skipped] == ["invalid JSON", "not a JSON object", "no usable abstract", "abstract too long"]


@pytest.mark.parametrize("latex, text", [
    ("Caf{\\'e} $\\alpha$", "Café α"),
    ("\\texttt{LR-SCB}: bandits", "LR-SCB: bandits"),  # pylatexenc alone drops a \texttt argument
    ("$\\mathtt{VITS}$", "VITS"),  # not mathematical monospace letters
    ("$\\mathsf{DNA\\mbox{-}SE}$", "DNA-SE"),
    ("\\emph{Deep} \\textbf{Sets}", "Deep Sets"),
    ("95% of \\url{https://x.org/a}", "95% of https://x.org/a"),
    ("no markup at all", "no markup at all"),
    ("$\\boldsymbol{\\theta}$ and \\bm{x}", "θ and x"),  # no "%s" for a command the parser reads without argument
    ("see \\href{x}", "see \\href{x}"),  # pylatexenc fails: the text stays as written
])
def test_latex_to_text_keeps_what_is_written(latex: str, text: str) -> None:
    from kg.ingest.latex import latex_to_text

    assert latex_to_text(latex) == text
