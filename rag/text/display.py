"""Abstract text as a person reads it: LaTeX made readable (`1.78$\\times$` -> `1.78×`,
`$1-2\\alpha$` -> `1−2α`, `$\\texttt{JDI-CP}$` -> `JDI-CP`) and markdown/LaTeX emphasis kept as
structure (runs of plain, emphasised and strong text) so the app can show it as emphasis and the
terminal as plain words.

The conversion is pylatexenc's; this module only finds the pieces (math, emphasis, text with
commands) and hands each to it. Display only: quotes, verification and metrics keep the
original text. Input that is too large or too deeply nested for a parser in bounded time is
returned unchanged (plain text), and a piece pylatexenc cannot convert is kept as written.
"""

from __future__ import annotations

import html
import logging
import re
from functools import lru_cache

from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.macrospec import MacroSpec

log = logging.getLogger(__name__)
# pylatexenc logs a warning for every macro it cannot substitute; abstracts are not LaTeX we
# wrote, so those are expected and would flood the log.
logging.getLogger("pylatexenc").setLevel(logging.ERROR)

MAX_CHARS = 25_000  # longer than any abstract the reader accepts (20,000)
MAX_DOLLARS = 400
MAX_DEPTH = 24  # brace nesting; pylatexenc recurses per level
MAX_NESTED = 3  # emphasis inside emphasis

Run = tuple[str, str]  # (style, text); style "" plain, "i" emphasis, "b" strong


def _last_arg(n: latexwalker.LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    """The text of a macro's last argument that was given (`\\href{url}{text}` -> text)."""
    args = [a for a in (n.nodeargd.argnlist if n.nodeargd else []) if a is not None]
    return l2tobj.nodelist_to_text([args[-1]]) if args else ""


def _unknown(n: latexwalker.LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    """A macro pylatexenc does not know is usually a paper's own name macro (`\\Ours`): its name."""
    del l2tobj
    return str(n.macroname) + str(getattr(n, "macro_post_space", "") or "")


def _fraction(n: latexwalker.LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    args = [a for a in (n.nodeargd.argnlist if n.nodeargd else []) if a is not None]
    return "/".join(l2tobj.nodelist_to_text([a]) for a in args)


# Macros with arguments that pylatexenc's text conversion lacks or renders unreadably:
# (name, argument spec, how to show it). Found by scanning the shipped abstracts and the
# proceedings corpus (tests/test_display.py checks every command found there is covered).
_WITH_ARGS: tuple[tuple[str, str, object], ...] = (
    *((m, "{", _last_arg) for m in ("texttt", "url", "unicode", "bm", "boldsymbol", "textsf", "textup", "mbox")),
    *((m, "{", _last_arg) for m in ("textsubscript", "textsuperscript", "Tilde", "smash", "mathbbm", "ensuremath")),
    ("href", "{{", _last_arg),  # the link text, never the target
    ("hyperlink", "{{", _last_arg),
    ("stackrel", "{{", _last_arg),
    ("dfrac", "{{", _fraction),
    ("tfrac", "{{", _fraction),
    ("cite", "[{", ""),
    ("citep", "[[{", ""),
    ("citet", "[[{", ""),
)
# Sizing and spacing commands that carry no text.
_SILENT = (
    "em it bf rm sl cal left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr allowbreak displaystyle "
    "nonumber noindent"
).split()
# pylatexenc drops the space after these ("n \\log n" would read "n logn").
_FUNCTIONS = "log ln exp min max sup inf arg lim det".split()


def _contexts() -> tuple[object, object]:
    walker_db = latexwalker.get_default_latex_context_db()
    walker_db.add_context_category(
        "display", prepend=True, macros=[MacroSpec(name, spec) for name, spec, _ in _WITH_ARGS]
    )
    text_db = get_default_latex_context_db()
    text_db.add_context_category(
        "display",
        prepend=True,
        macros=[
            *(MacroTextSpec(name, simplify_repl=repl) for name, _, repl in _WITH_ARGS),
            *(MacroTextSpec(name, simplify_repl="") for name in _SILENT),
            *(MacroTextSpec(name, simplify_repl=_unknown) for name in _FUNCTIONS),
            MacroTextSpec("|", simplify_repl="‖"),
        ],
    )
    text_db.set_unknown_macro_spec(MacroTextSpec("", simplify_repl=_unknown))
    return walker_db, text_db


_WALKER_DB, _TEXT_DB = _contexts()
_TO_TEXT = LatexNodes2Text(latex_context=_TEXT_DB, math_mode="text", strict_latex_spaces="based-on-source")

# Pieces, tried left to right; the first group that matched names the kind.
_PIECES = re.compile(
    r"\$\$(?P<dmath>[^$]{1,2000}?)\$\$"
    r"|(?<![\\$\w])\$(?![\s$])(?P<math>[^$\n]{1,600}?)(?<![\s\\])\$(?![\d$])"
    r"|\\\((?P<pmath>.{1,600}?)\\\)"
    r"|\\\[(?P<bmath>.{1,600}?)\\\]"
    r"|\*\*(?=\S)(?P<strong>[^*\n]{1,300}?)(?<=\S)\*\*"
    r"|(?<![\w*\\])\*(?![\s*])(?P<em>[^*\n]{1,300}?)(?<![\s*\\])\*(?![\w*])"
    r"|\\(?:emph|textit|textsl)\{(?P<ltxem>[^{}]{0,300})\}"
    r"|\\textbf\{(?P<ltxbf>[^{}]{0,300})\}"
    r"|\{\\(?:em|it|itshape|sl)\s(?P<ltxem2>[^{}]{0,300})\}"
    r"|\{\\(?:bf|bfseries)\s(?P<ltxbf2>[^{}]{0,300})\}"
    r"|`(?P<code>[^`\n]{1,200})`",
    re.S,
)
_MATH = {"dmath", "math", "pmath", "bmath"}
_STYLE = {"strong": "b", "ltxbf": "b", "ltxbf2": "b", "em": "i", "ltxem": "i", "ltxem2": "i", "code": ""}
# Arguments that are words, not formulas: a hyphen in them is a hyphen, not a minus.
_WORDS_ARG = re.compile(r"\\(?:text[a-z]*|math(?:rm|tt|sf|bf|it)|operatorname|mbox)\s*\{[^{}]*\}")
_UNESCAPED = re.compile(r"(?<!\\)([%&#])")
_COMMAND = re.compile(r"\\[A-Za-z]|\\[%&#$_{}|,;! '\"^`=.~]")


def _depth(text: str) -> int:
    depth = best = 0
    for ch in text:
        if ch == "{":
            depth += 1
            best = max(best, depth)
        elif ch == "}":
            depth = max(0, depth - 1)
    return best


def too_hostile(text: str) -> bool:
    """Input a parser could spend unbounded time or stack on: shown as written."""
    return len(text) > MAX_CHARS or text.count("$") > MAX_DOLLARS or _depth(text) > MAX_DEPTH


def _latex(source: str, *, math: bool) -> str:
    """One piece through pylatexenc; the piece unchanged when it cannot be converted."""
    if math:  # a hyphen between math tokens is a minus sign
        parts, last = [], 0
        for m in _WORDS_ARG.finditer(source):
            parts += [source[last : m.start()].replace("-", "−"), m.group(0)]
            last = m.end()
        source = "".join([*parts, source[last:].replace("-", "−")])
    source = _UNESCAPED.sub(r"\\\1", source)
    source = re.sub(r"(?<!\\)~", r"\\textasciitilde{}", source)
    try:
        walker = latexwalker.LatexWalker(source, latex_context=_WALKER_DB, tolerant_parsing=True)
        nodes, _, _ = walker.get_latex_nodes()
        out = _TO_TEXT.nodelist_to_text(nodes)
    except (RecursionError, Exception):  # malformed data: show it as written
        log.debug("kept a piece as written: %r", source[:80])
        return source
    return re.sub(r"[ \t\u00a0]{2,}", " ", out).strip() if math else out


def _plain(text: str) -> str:
    return _latex(text, math=False) if _COMMAND.search(text) else text


def _merge(runs: list[Run]) -> list[Run]:
    out: list[Run] = []
    for style, text in runs:
        if not text:
            continue
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        else:
            out.append((style, text))
    return out


def _runs(text: str, style: str, level: int) -> list[Run]:
    runs: list[Run] = []
    last = 0
    for m in _PIECES.finditer(text):
        kind = m.lastgroup or ""
        runs.append((style, _plain(text[last : m.start()])))
        body = m.group(kind)
        if kind in _MATH:
            runs.append((style, _latex(body, math=True)))
        elif level < MAX_NESTED:
            runs += _runs(body, _STYLE[kind] or style, level + 1)
        else:
            runs.append((style, body))
        last = m.end()
    runs.append((style, _plain(text[last:])))
    return runs


@lru_cache(maxsize=8192)
def readable_runs(text: str) -> tuple[Run, ...]:
    """The text as (style, text) runs: LaTeX converted, emphasis kept as style."""
    if too_hostile(text):
        return (("", text),)
    if "$" not in text and "\\" not in text and "*" not in text and "`" not in text and "{\\" not in text:
        return (("", text),)
    return tuple(_merge(_runs(text, "", 0)))


def readable(text: str) -> str:
    """Plain readable text (the terminal, JSON `display` fields, Copy answer)."""
    return "".join(t for _, t in readable_runs(text))


def readable_html(text: str) -> str:
    """Readable text as escaped HTML: only <i> and <b> from us, every character of the data escaped."""
    out = []
    for style, t in readable_runs(text):
        body = html.escape(t, quote=True)
        out.append(f"<{style}>{body}</{style}>" if style else body)
    return "".join(out)
