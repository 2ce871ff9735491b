"""LaTeX in bibliographic fields (``{\\"u}``, ``\\'e``, ``$\\alpha$``, ``\\textbf{...}``) decoded to Unicode text."""
from __future__ import annotations

import functools
import re

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexwalker import LatexWalkerError

#: what only LaTeX markup holds: commands, groups, math, ties, dash and quote ligatures
_LATEX_HINT = re.compile(r"[\\{}$~]|--|``|''")
#: a ``%`` that no backslash escapes: bibliographies write "95%" meaning the character, not a LaTeX comment
_BARE_PERCENT = re.compile(r"(?<!\\)%")


#: commands whose argument is written as it stands: pylatexenc drops ``\\texttt{...}`` and ``\\mbox{...}`` and
#: turns ``\\mathtt{VITS}`` into mathematical monospace letters no one can search for
#: (only commands the parser knows to take an argument: for another, "%s" would be written as it stands)
_PLAIN = ("url", "texttt", "textsf", "textsc", "textrm", "textbf", "textit", "textup", "textmd", "emph", "mbox",
          "text", "mathtt", "mathsf", "mathbf", "mathit", "mathrm")


@functools.lru_cache(maxsize=1)
def _decoder() -> LatexNodes2Text:
    context = get_default_latex_context_db()
    context.add_context_category("paperkg-fields", prepend=True,
                                 macros=[MacroTextSpec(name, simplify_repl="%s") for name in _PLAIN])
    return LatexNodes2Text(latex_context=context, math_mode="text", keep_braced_groups=False)


def latex_to_text(text: str) -> str:
    """``text`` with its LaTeX accents, symbols, math and formatting commands turned to Unicode and its
    grouping braces removed (``Caf{\\'e} $\\alpha$`` -> ``Café α``); whitespace is kept as written."""
    if not _LATEX_HINT.search(text):
        return text
    try:
        return _decoder().latex_to_text(_BARE_PERCENT.sub(r"\\%", text))
    except (IndexError, ValueError, LatexWalkerError):  # pylatexenc fails on some commands ("\\href{x}")
        return text  # what cannot be decoded stays as written


_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def latex_paragraphs(text: str) -> str:
    """``text`` decoded by :func:`latex_to_text` and spaced as LaTeX reads it: a line break and the spaces
    around it are one space, a blank line ends a paragraph (kept as one blank line)."""
    paragraphs = (_SPACES.sub(" ", p).strip(" ") for p in _BLANK_LINE.split(text.strip(" \t\n\r\f\v")))
    return "\n\n".join(latex_to_text(p) for p in paragraphs if p)
