"""BibTeX entries from a paper's own fields: title, author, booktitle (its venue), year, url.

A field the record lacks is left out, never invented. Keys are the first author's surname +
year + first title word ("cho2025one"), made unique over a whole corpus by a letter suffix
given in a stable order (by paper id), so a paper's key does not depend on which others are
cited with it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rag.types import Paper

# Characters BibTeX (and LaTeX inside it) reads as syntax; written escaped.
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
# Combining accents and their LaTeX accent commands: "é" -> {\'e}.
_ACCENTS = {
    "\u0301": "'",
    "\u0300": "`",
    "\u0302": "^",
    "\u0308": '"',
    "\u0303": "~",
    "\u0304": "=",
    "\u0307": ".",
    "\u030a": "r",
    "\u030c": "v",
    "\u0306": "u",
    "\u0327": "c",
    "\u030b": "H",
    "\u0328": "k",
}
_LETTERS = {"ß": r"{\ss}", "ø": r"{\o}", "Ø": r"{\O}", "æ": r"{\ae}", "Æ": r"{\AE}", "ł": r"{\l}", "Ł": r"{\L}"}
_STOP = frozenset("a an the on of for to in and with towards toward is are".split())


def _char(base: str, marks: str) -> str:
    out = _SPECIAL.get(base, _LETTERS.get(base, base))
    for mark in marks:
        cmd = _ACCENTS.get(mark)
        if cmd is None:  # an accent LaTeX has no command for: keep the character as written
            return unicodedata.normalize("NFC", base + marks)
        sep = " " if cmd.isalpha() else ""
        out = f"{{\\{cmd}{sep}{out}}}"
    return out


def escape(text: str) -> str:
    """Field text with BibTeX/LaTeX specials escaped and accents as accent commands."""
    out: list[str] = []
    decomposed = unicodedata.normalize("NFD", " ".join(text.split()))
    i = 0
    while i < len(decomposed):
        base, i = decomposed[i], i + 1
        marks = ""
        while i < len(decomposed) and unicodedata.combining(decomposed[i]):
            marks, i = marks + decomposed[i], i + 1
        out.append(_char(base, marks))
    return "".join(out)


def _ascii_word(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower())


def base_key(p: Paper) -> str:
    """surname + year + first title word, ASCII lowercase; parts the record lacks are skipped."""
    surname = _ascii_word(p.authors[0].split()[-1]) if p.authors and p.authors[0].split() else ""
    words = [_ascii_word(w) for w in re.split(r"[\s:–—/]+", p.title or "")]  # "One-Step" is one word
    first = next((w for w in words if w and w not in _STOP), "")
    return f"{surname}{p.year or ''}{first}" or _ascii_word(p.paper_id) or "paper"


def keys(papers: Iterable[Paper]) -> dict[str, str]:
    """paper_id -> unique key; colliding keys get a, b, c… in paper-id order."""
    by_base: dict[str, list[str]] = {}
    for p in sorted(papers, key=lambda p: p.paper_id):
        by_base.setdefault(base_key(p), []).append(p.paper_id)
    out: dict[str, str] = {}
    for base, ids in by_base.items():
        for i, pid in enumerate(ids):
            out[pid] = base if len(ids) == 1 else f"{base}{_suffix(i)}"
    return out


def _suffix(i: int) -> str:
    letters = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        letters = chr(ord("a") + r) + letters
    return letters


def entry(p: Paper, key: str) -> str:
    """One @inproceedings (@misc without a venue) entry from the record's own fields."""
    fields: list[tuple[str, str]] = []
    if p.title:
        fields.append(("title", "{" + escape(p.title) + "}"))  # inner braces keep its capitals
    if p.authors:
        fields.append(("author", " and ".join(escape(a) for a in p.authors)))
    if p.venue:
        fields.append(("booktitle", escape(p.venue)))
    if p.year:
        fields.append(("year", str(p.year)))
    if p.url:
        fields.append(("url", _url(p.url)))
    kind = "inproceedings" if p.venue else "misc"
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n" if fields else f"@{kind}{{{key}\n}}\n"


def _url(url: str) -> str:
    """A URL keeps its characters (BibTeX's url field is verbatim) except the ones that would end
    or break the field: braces, backslashes and whitespace, percent-encoded."""
    return re.sub(r"[{}\\\s]", lambda m: f"%{ord(m.group(0)):02X}", url)


def bibtex(papers: Iterable[Paper], corpus: Iterable[Paper]) -> str:
    """Entries for `papers`, keyed uniquely over the whole `corpus`."""
    ks = keys(corpus)
    return "\n".join(entry(p, ks.get(p.paper_id) or base_key(p)) for p in papers)
