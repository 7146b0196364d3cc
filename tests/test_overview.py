"""Questions that ask what a whole paper is ("Summarize X", "tl;dr of the X paper", "Explain X in
one sentence"): the paper they name answers, led by the sentence that says what it proposes
(`rag.answer.overview`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.accept import LOOSE
from rag.answer.evidence import Features
from rag.answer.overview import asks_overview, asks_what_it_is, names_only, subject
from rag.answer.selection import _defining
from rag.engine import Engine
from tests.conftest import with_papers


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Summarize CacheZip", "CacheZip"),
        ("Can you please summarise the CacheZip paper?", "the CacheZip paper"),
        ("tl;dr of the CacheZip paper", "the CacheZip paper"),
        ("TLDR: CacheZip", "CacheZip"),
        ("Explain CacheZip in one sentence", "CacheZip"),
        ("explain CacheZip in simple terms, please", "CacheZip"),
        ("Give me a quick overview of CacheZip.", "CacheZip"),
        ("What's the main contribution of CacheZip?", "CacheZip"),
        ("What is CacheZip used for?", "CacheZip"),
        ("What can CacheZip be used for?", "CacheZip"),
        ("What is the model used for training?", "the model used for training"),  # not asked of a paper
        ("What is the key idea behind the CacheZip method?", "the CacheZip method"),
        ("What's the gist of CacheZip", "CacheZip"),
        ("Main contribution of CacheZip?", "CacheZip"),
        ("CacheZip in a nutshell?", "CacheZip"),
        ("ELI5 CacheZip", "CacheZip"),
        ("What is CacheZip about?", "CacheZip"),
        ("What does CacheZip propose?", "CacheZip"),
        ("What did they study?", "they"),
        ("What do the CacheZip authors work on?", "the CacheZip authors"),
        ("Briefly, what is CacheZip?", "CacheZip"),
        ("Can you summarize the paper on cache compression?", "the paper on cache compression"),
        ("What's new in CacheZip?", "CacheZip"),
        ("What is novel about CacheZip compared to prior work?", "CacheZip"),
        ("What's the novelty of CacheZip?", "CacheZip"),
        ("What's the takeaway of CacheZip for practitioners?", "CacheZip"),
        ("What is new in caching since 2020?", "caching since 2020"),  # not asked of a paper
        ("Which paper introduced CacheZip?", "CacheZip"),
        ("What paper is CacheZip from?", "CacheZip"),
        ("Where does CacheZip come from?", "CacheZip"),
        ("Which paper first proposed the CacheZip codec?", "the CacheZip codec"),
        ("What batch size does CacheZip use?", None),
        ("How does CacheZip compare to KIVI?", None),
        ("Which papers compress caches?", None),
    ],
)
def test_subject(question: str, asked: str | None) -> None:
    assert subject(question) == asked


@pytest.mark.parametrize(
    ("text", "only"),
    [
        ("CacheZip", True),
        ("the CacheZip paper", True),
        ("CacheZip's", True),
        ("the method called CacheZip", True),
        ("CacheZip's compression ratio", False),
        ("CacheZipper", False),
        ("the batch size of CacheZip", False),
        ("it", False),
    ],
)
def test_names_only(text: str, only: bool) -> None:
    assert names_only(text, "CacheZip") is only


@pytest.mark.parametrize(
    ("question", "by_title", "asks"),
    [
        ("Summarize the CacheZip paper", False, True),
        ("Can you summarize the paper on key-value cache compression?", True, True),
        ("What's the gist of the cache compression paper?", True, True),
        # Named by its title's words, but a word the title lacks asks for more than what it is.
        ("What is the batch size in the paper on cache compression?", True, False),
        ("Can you summarize the paper on cache compression?", False, False),  # no title reference
        ("Summarize CacheZipper", False, False),
        ("CacheZip?", False, True),  # the name alone asks what it is
        ("the CacheZip paper", False, True),
        ("CacheZip speed?", False, False),
    ],
)
def test_asks_overview(question: str, by_title: bool, asks: bool) -> None:
    title = "CacheZip: Key-Value Cache Compression for Long Contexts"
    assert asks_overview(question, "CacheZip", title, by_title=by_title) is asks


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("summarize it", True),
        ("explain it in one sentence", True),
        ("give me the tl;dr of the second one", True),
        ("What is this paper about?", True),
        ("tell me more", False),  # more than what it is
        ("summarize its results on GSM8K", False),
    ],
)
def test_a_follow_up_overview_refers_back(question: str, asks: bool) -> None:
    assert asks_overview(question, "CacheZip", "", by_title=False, discussed=True) is asks
    assert not asks_overview(question, "CacheZip", "", by_title=False)  # no conversation: nothing to refer to


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("How does CacheZip work?", "CacheZip"),
        ("how does cachezip work", "cachezip"),
        ("What problem does CacheZip solve?", "CacheZip"),
        ("What are the main findings of the CacheZip paper?", "the CacheZip paper"),
        ("Key results of CacheZip?", "CacheZip"),
        ("CacheZip main result", "CacheZip"),
        ("What does the CacheZip paper conclude?", "the CacheZip paper"),
        ("What did CacheZip find?", "CacheZip"),
        ("And what did CacheZip find?", "CacheZip"),
        ("What are CacheZip's key results?", "CacheZip"),
        ("What does CacheZip show about long contexts?", None),
        ("How does CacheZip compress keys?", None),
        ("What problem does CacheZip have with long contexts?", None),
    ],
)
def test_about_subject(question: str, asked: str | None) -> None:
    assert subject(question, about=True) == asked
    # Not what it is: accepted as asked of the whole paper, but no defining sentence leads.
    assert asks_overview(question, "CacheZip", "", by_title=False, about=True) is (asked is not None)
    assert not asks_overview(question, "CacheZip", "", by_title=False)


@given(st.text(max_size=80), st.text(max_size=12), st.booleans())
def test_overview_parsers_never_raise(question: str, label: str, by_title: bool) -> None:
    asks_overview(question, label, label, by_title=by_title)
    asks_what_it_is(question, label)


def test_an_overview_is_accepted_however_far_its_frame_words_are() -> None:
    far = Features(cosine=0.1, coverage=0.3, missing_detail=None, score=0.5, overview=True)
    assert LOOSE.accepts(far, "tl;dr of CacheZip", "CacheZip", multi=False)
    missing = Features(cosine=0.1, coverage=0.3, missing_detail="name not in the paper: Zoom", score=0.5, overview=True)
    assert not LOOSE.accepts(missing, "tl;dr of CacheZip", "CacheZip", multi=False)
    assert not LOOSE.accepts(Features(0.1, 0.3, None, 0.5), "tl;dr of CacheZip", "CacheZip", multi=False)


def test_without_a_defining_sentence_the_stated_contribution_leads() -> None:
    scored = [
        ("c1", "CacheZips are chained at inference time.", 0.9),
        ("c2", "The key contribution of our paper is a codec for caches.", 0.5),
    ]
    assert _defining(scored, "CacheZip") == "c2"
    assert _defining([("c1", "Caches are large.", 0.9)], "CacheZip") is None


# The definition is the third sentence: the position prior alone would not lead with it.
ZIP = [
    "Long contexts make key-value caches the memory bottleneck of inference. "
    "Existing quantizers lose accuracy below four bits. "
    "We introduce CacheZip, a codec that compresses key-value caches of language models. "
    "CacheZip keeps accuracy on long-context benchmarks while using less memory."
]


@pytest.mark.parametrize(
    "question",
    ["Explain CacheZip in one sentence", "tl;dr of the CacheZip paper", "Give me a quick overview of CacheZip."],
)
def test_an_overview_question_is_answered_by_what_the_paper_proposes(
    fake_engine: Engine, tmp_path: Path, question: str
) -> None:
    a = with_papers(fake_engine, tmp_path / "zip", "zip", ZIP).ask(question)
    assert not a.refused
    assert {c.paper_id for c in a.citations} == {"zip#1"}
    assert a.citations[0].quote.startswith("We introduce CacheZip, a codec")


@pytest.mark.parametrize("question", ["Summarize the HyperZoom paper", "Explain FlowNetX in one sentence"])
def test_an_overview_of_an_unknown_name_is_refused(fake_engine: Engine, tmp_path: Path, question: str) -> None:
    assert with_papers(fake_engine, tmp_path / "zip", "zip", ZIP).ask(question).refused


@pytest.mark.parametrize("question", ["How does CacheZip work?", "What problem does CacheZip solve?"])
def test_a_question_about_the_whole_named_paper_is_answered(fake_engine: Engine, tmp_path: Path, question: str) -> None:
    a = with_papers(fake_engine, tmp_path / "zip", "zip", ZIP).ask(question)
    assert not a.refused and {c.paper_id for c in a.citations} == {"zip#1"}
