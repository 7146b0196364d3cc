"""A paper named by its link (`rag.index.links`, `rag.answer.linked`, `routes._linked`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.engine import Engine
from rag.index.links import LinkIndex, link_key, links_in
from rag.types import Paper
from tests.conftest import SMALL, with_records


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://openreview.net/forum?id=AbC123", "openreview:AbC123"),
        ("openreview.net/pdf?id=AbC123", "openreview:AbC123"),  # its PDF is the same paper
        ("https://www.openreview.net/forum?id=AbC123&noteId=x", "openreview:AbC123"),
        ("https://proceedings.mlr.press/v238/zhang24a.html", "proceedings.mlr.press/v238/zhang24a"),
        ("https://proceedings.mlr.press/v238/zhang24a/zhang24a.pdf", "proceedings.mlr.press/v238/zhang24a"),
        ("arxiv.org/abs/2401.01234v2", "arxiv.org/2401.01234"),
        ("https://arxiv.org/pdf/2401.01234", "arxiv.org/2401.01234"),
        ("https://github.com/org/repo/", "github.com/org/repo"),
        ("https://example.org", None),  # a site, not a paper
    ],
)
def test_link_key(url: str, key: str | None) -> None:
    assert link_key(url) == key


@pytest.mark.parametrize(
    ("text", "links"),
    [
        ("What does https://openreview.net/forum?id=Ab1 propose?", ["https://openreview.net/forum?id=Ab1"]),
        ("Summarize openreview.net/forum?id=Ab1.", ["openreview.net/forum?id=Ab1"]),
        ("Compare (arxiv.org/abs/1) and “github.com/a/b”", ["arxiv.org/abs/1", "github.com/a/b"]),
        ("What is 3.5/4 of x/y, e.g. in the U.S.?", []),
    ],
)
def test_links_in(text: str, links: list[str]) -> None:
    assert [u for _, _, u in links_in(text)] == links


@given(st.text(max_size=120))
def test_links_in_never_raises(text: str) -> None:
    for start, end, url in links_in(text):
        assert text[start:end] == url
        link_key(url)


def test_link_index_finds_papers_by_record_link() -> None:
    papers = {
        "a": Paper(paper_id="a", source="s", position=1, abstract="x", url="https://openreview.net/forum?id=A1"),
        "b": Paper(paper_id="b", source="s", position=2, abstract="y"),
    }
    found = LinkIndex(papers).find("Is openreview.net/pdf?id=A1 good? And openreview.net/forum?id=B2?")
    assert [pids for _, _, pids in found] == [["a"]]


META = [
    {"paper_id": "l#1", "title": "GraphMix: Mixing Nodes", "url": "https://openreview.net/forum?id=Gm01"},
    {"paper_id": "l#2", "title": "Folding Proteins by Diffusion", "url": "https://proceedings.mlr.press/v1/f24a.html"},
]
CODE = SMALL[3] + " Code is at https://github.com/lab/curious."


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "l", "l", [*SMALL[:3], CODE], META)


def test_a_record_link_names_its_paper(engine: Engine) -> None:
    a = engine.ask("What does https://openreview.net/forum?id=Gm01 propose?")
    assert not a.refused and {c.paper_id for c in a.citations} == {"l#1"}
    assert a.note and a.note.startswith("Read https://openreview.net/forum?id=Gm01 as “GraphMix: Mixing Nodes”.")
    assert a.question == "What does https://openreview.net/forum?id=Gm01 propose?"


def test_the_paper_at_a_link(engine: Engine) -> None:
    a = engine.ask("Summarize the paper at proceedings.mlr.press/v1/f24a/f24a.pdf")
    assert not a.refused and {c.paper_id for c in a.citations} == {"l#2"}


def test_a_link_an_abstract_writes_is_asked_word_for_word(engine: Engine) -> None:
    a = engine.ask("What does the code at github.com/lab/curious do?")
    assert {c.paper_id for c in a.citations} == {"l#4"}
    assert a.note and "github.com/lab/curious" in a.note


def test_a_link_no_paper_has_is_said_not_guessed(engine: Engine) -> None:
    a = engine.ask("What does https://openreview.net/forum?id=Zz99 propose?")
    assert a.refused and a.citations == []
    assert a.note == "No indexed paper's record or abstract has the link https://openreview.net/forum?id=Zz99."
