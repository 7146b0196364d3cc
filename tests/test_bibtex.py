"""BibTeX entries (rag/corpus/bibtex.py): the record's own fields only, escaping, stable unique keys."""

from __future__ import annotations

from rag.corpus.bibtex import base_key, bibtex, entry, escape, keys
from rag.types import Paper


def paper(pid: str, **kw: object) -> Paper:
    return Paper(paper_id=pid, source="s", position=1, abstract="An abstract.", **kw)  # type: ignore[arg-type]


FULL = paper(
    "s#1",
    title="One-Step Ratio: A Study",
    authors=["Sumin Cho", "Dongwon Kim"],
    url="https://openreview.net/forum?id=abc",
    venue="ICML 2025",
    year=2025,
)


def test_full_entry() -> None:
    assert entry(FULL, "cho2025onestep") == (
        "@inproceedings{cho2025onestep,\n"
        "  title = {{One-Step Ratio: A Study}},\n"
        "  author = {Sumin Cho and Dongwon Kim},\n"
        "  booktitle = {ICML 2025},\n"
        "  year = {2025},\n"
        "  url = {https://openreview.net/forum?id=abc}\n"
        "}\n"
    )


def test_missing_fields_are_left_out_never_invented() -> None:
    bare = paper("mine#3", title="Zebra Logic")
    e = entry(bare, base_key(bare))
    assert e == "@misc{zebra,\n  title = {{Zebra Logic}}\n}\n"
    for field in ("author", "booktitle", "year", "url"):
        assert f"{field} =" not in e
    nothing = paper("mine#4")
    assert base_key(nothing) == "mine4" and entry(nothing, "mine4") == "@misc{mine4\n}\n"


def test_escaping() -> None:
    assert escape("R&D 50% $5 #1 a_b {x} \\y ~z ^w") == (
        r"R\&D 50\% \$5 \#1 a\_b \{x\} \textbackslash{}y \textasciitilde{}z \textasciicircum{}w"
    )
    assert escape("Erdős Gödel Müller Ñuñez Çelik Søren") == (
        r"Erd{\H o}s G{\"o}del M{\"u}ller {\~N}u{\~n}ez {\c C}elik S{\o}ren"
    )
    p = paper("s#2", title="Bias & Variance: 100% {Robust}", authors=["José Núñez"], year=2024)
    e = entry(p, base_key(p))
    assert r"title = {{Bias \& Variance: 100\% \{Robust\}}}" in e and r"author = {Jos{\'e} N{\'u}{\~n}ez}" in e
    assert base_key(p) == "nunez2024bias"
    weird = paper("s#3", url="https://x.org/a{b}c d")
    assert "url = {https://x.org/a%7Bb%7Dc%20d}" in entry(weird, "k")


def test_keys_unique_and_stable() -> None:
    a = paper("f#2", title="The Attention Trick", authors=["Ann Lee"], year=2025)
    b = paper("f#1", title="Attention Again", authors=["Bo Lee"], year=2025)
    c = paper("f#3", title="Other", authors=["Cy Lee"], year=2025)
    ks = keys([a, b, c])
    assert ks == {"f#1": "lee2025attentiona", "f#2": "lee2025attentionb", "f#3": "lee2025other"}
    assert keys([c, a, b]) == ks  # order of the corpus does not matter
    # a cited subset is keyed over the whole corpus, so keys never change with what is cited
    assert bibtex([a], [a, b, c]).startswith("@misc{lee2025attentionb,")
    assert len(set(keys([paper(f"g#{i}", title="Same", year=2025) for i in range(30)]).values())) == 30
