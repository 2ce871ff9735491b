"""The project's Markdown pages link to files and headings that exist: a moved section or a renamed file
breaks a link here, not in a reader's browser."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("training/*.md"),
                *ROOT.glob("ontology/*.md"), *ROOT.glob("bench/*.md")])
#: ``[text](target)``, the target without spaces (Markdown's inline link)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def prose(text: str) -> str:
    """``text`` without its fenced code blocks (a link written there is an example, not a link)."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading's text: lower case, punctuation but ``-`` and ``_`` dropped,
    each space a hyphen."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings, the second of two equal ones suffixed ``-1`` as GitHub does."""
    seen: dict[str, int] = {}
    out = set()
    for line in prose(page.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def test_slug_follows_github() -> None:
    assert slug("The default `--min-confidence` (night)") == "the-default---min-confidence-night"
    assert slug("What ships (2026-12-06): tasks from 0.5, no coined name") == \
        "what-ships-2026-12-06-tasks-from-05-no-coined-name"
    assert slug("Measured (2026-12-07, evening): the pool's abstracts") == \
        "measured-2026-12-07-evening-the-pools-abstracts"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_reach_a_file_and_heading(page: Path) -> None:
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)} links to what is not there:\n" + "\n".join(broken)


def test_every_predeclared_prefix_is_listed_where_users_read_them() -> None:
    from click.testing import CliRunner

    from kg.cli import cli
    from kg.namespaces import PREFIXES

    help_text = " ".join(CliRunner().invoke(cli, ["query", "--help"]).output.split())
    serve = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    for prefix in PREFIXES:
        assert f"{prefix}:" in help_text, f"kg query --help does not list {prefix}:"
        assert f"`{prefix}:`" in serve, f"docs/serve.md does not list {prefix}:"
