"""Who wrote a paper, which papers a person wrote, its link and its venue: answered from the
papers' records, each line cited to its paper by a sentence of its abstract (`rag.answer.records`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.compound import record_part
from rag.answer.pipeline import ask
from rag.answer.records import FROM_RECORD, asked_authors, asks_who_wrote, record_asked
from rag.engine import Engine
from rag.index.authors import AuthorIndex, fold
from rag.types import Paper, Query
from tests.conftest import with_records
from tests.fakes import ScriptedLLM


@pytest.mark.parametrize(
    ("question", "rest"),
    [
        ("Who wrote CacheZip?", "CacheZip"),
        ("who are the authors of the CacheZip paper", "the CacheZip paper"),
        ("Who authored the paper on cache compression?", "the paper on cache compression"),
        ("Authors of CacheZip?", "CacheZip"),
        ("who are the authors?", ""),
        ("Who wrote it?", "it"),
        ("Who else wrote it?", "it"),
        ("Who proposed CacheZip?", "CacheZip"),
        ("Who introduced the CacheZip codec?", "the CacheZip codec"),
        ("Which researchers wrote CacheZip?", "CacheZip"),
        ("Which researchers are behind that one?", "that one"),
        ("What do the authors of CacheZip recommend?", None),
        ("The authors of CacheZip recommend what?", None),
        ("Who wrote CacheZip and what does it propose?", None),
        ("Which university are the authors of CacheZip from?", None),
        ("Who benefits from CacheZip?", None),
    ],
)
def test_asks_who_wrote(question: str, rest: str | None) -> None:
    assert asks_who_wrote(question) == rest


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Give me the link to the CacheZip paper", ("url", "the CacheZip paper")),
        ("Where can I read CacheZip?", ("url", "CacheZip")),
        ("link?", ("url", "")),
        ("When was CacheZip published?", ("venue", "CacheZip")),
        ("Which conference is CacheZip from?", ("venue", "CacheZip")),
        ("What is the title of the CacheZip paper?", ("title", "the CacheZip paper")),
        ("What's CacheZip's full title?", ("title", "CacheZip")),
        ("What is the title about?", None),
        ("Who wrote CacheZip?", ("authors", "CacheZip")),
        ("What venue was CacheZip published at?", ("venue", "CacheZip")),
        ("Who is the last author of CacheZip?", ("last author", "CacheZip")),
        ("Who is the senior author?", ("last author", "")),
        ("First author of CacheZip?", ("first author", "CacheZip")),
        ("Who was the lead author of the CacheZip paper?", ("first author", "the CacheZip paper")),
        ("Where can I find the code for CacheZip?", None),  # the abstract's own sentence gives it
        ("link to the CacheZip weights", None),
        ("What is the link between caches and memory?", None),
        ("Where did the gains come from?", None),
        ("When was the model trained?", None),
    ],
)
def test_record_asked(question: str, asked: tuple[str, str] | None) -> None:
    assert record_asked(question) == asked


@given(st.text(max_size=100))
def test_asks_who_wrote_never_raises(question: str) -> None:
    asks_who_wrote(question)
    record_asked(question)
    record_part(question)  # "What is X and who wrote it?" (`compound`)


def _paper(pid: str, authors: list[str]) -> Paper:
    return Paper(paper_id=pid, source="t", position=1, abstract="An abstract.", authors=authors)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Which papers are by Nuno Gonçalves?", ["nuno goncalves"]),
        ("papers by nuno goncalves and Ada Lovelace", ["nuno goncalves", "ada lovelace"]),
        ("What did Gonçalves write?", []),  # a surname alone is no full name
        ("What did Ada Lovelace King write?", ["ada lovelace king"]),  # the longest name written
    ],
)
def test_author_names(text: str, named: list[str]) -> None:
    index = AuthorIndex(
        {
            "a": _paper("a", ["Nuno Gonçalves", "Ada Lovelace"]),
            "b": _paper("b", ["Ada Lovelace King", "Plato"]),
        }
    )
    assert index.named(text) == named
    assert "plato" not in index.papers  # one word is no full name


def test_author_names_without_middle_initials() -> None:
    """One venue's records write "Osama A Hanna", another's "Osama Hanna": one person, however the
    user writes the name; a middle name that is a word is kept."""
    index = AuthorIndex(
        {
            "a": _paper("a", ["Osama A Hanna", "Noah A. Smith"]),
            "b": _paper("b", ["Osama Hanna", "Mary Ann Evans"]),
        }
    )
    assert index.of("Osama Hanna") == ["a", "b"] and index.of("Osama A. Hanna") == ["a", "b"]
    assert index.named("What did Osama B. Hanna and Noah Smith write?") == ["osama hanna", "noah smith"]
    text = "Papers by Mary Ann Evans?"
    assert [(text[i:j], key) for i, j, key in index.spans(text)] == [("Mary Ann Evans", "mary ann evans")]
    assert index.of("Mary Evans") == []
    # names joined by "and": the papers they wrote together; by "or", or with none together: each one's
    assert index.joined("by Osama Hanna and Noah Smith")[2] == ["a"]
    assert index.joined("by Osama Hanna or Noah Smith")[2] == ["a", "b"]
    assert index.joined("by Noah Smith and Mary Ann Evans")[2] == ["a", "b"]
    assert index.joined("by Noah Smith, then Mary Ann Evans")[2] == ["a"]


def test_fold() -> None:
    assert fold("  Nuno  GONÇALVES-Silva ") == "nuno goncalves silva"


PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec that "
    "compresses key-value caches. CacheZip keeps accuracy on long-context benchmarks.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet designs 120 novel folds.",
]
META = [
    {
        "paper_id": "rec#1",
        "title": "CacheZip: Compressing Key-Value Caches",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "url": "https://openreview.net/forum?id=zip",
        "venue": "ICML 2025",
    },
    {"paper_id": "rec#2", "title": "FoldNet: Designing Protein Backbones", "authors": ["Ada Lovelace"]},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "rec", "rec", PAPERS, META)


def test_who_wrote_a_named_paper(engine: Engine) -> None:
    a = engine.ask("Who wrote CacheZip?")
    assert not a.refused and a.note == FROM_RECORD
    assert a.answer == "“CacheZip: Compressing Key-Value Caches” is by Ada Lovelace and Alan Turing. [1]"
    # The citation is a sentence of that paper's abstract: the paper shown is the record's.
    assert [(c.paper_id, c.quote) for c in a.citations] == [
        ("rec#1", "We introduce CacheZip, a codec that compresses key-value caches.")
    ]
    assert a.sources[0].paper_id == "rec#1"  # every cited paper is among the sources, the answer's first


def test_who_wrote_it_in_a_conversation(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Is there a paper on protein backbones?"},
        {"role": "assistant", "content": "Yes: FoldNet generates protein backbones."},
    ]
    a = engine.ask("who are the authors?", history=history)
    assert {c.paper_id for c in a.citations} == {"rec#2"} and "Ada Lovelace" in a.answer


def test_who_wrote_an_unknown_paper_is_refused(engine: Engine) -> None:
    assert engine.ask("Who wrote FlowNetX?").refused
    assert engine.ask("who are the authors?").refused  # nothing to refer to


def test_papers_by_an_author(engine: Engine) -> None:
    a = engine.ask("Which papers are by Ada Lovelace?")
    assert {c.paper_id for c in a.citations} == {"rec#1", "rec#2"} == {s.paper_id for s in a.sources[:2]}
    # one paper listed: then the question's other closest papers (at least 10 sources, or all)
    b = engine.ask("Which papers are by Alan Turing?")
    assert [s.paper_id for s in b.sources] == ["rec#1", "rec#2"] and {c.paper_id for c in b.citations} == {"rec#1"}
    assert a.answer.count("\n") == 1 and a.answer.startswith("- ")
    assert engine.ask("Which papers are by Grace Hopper?").refused


CACHEZIP = [
    {"role": "user", "content": "What is CacheZip?"},
    {"role": "assistant", "content": "A codec.", "paper_ids": ["rec#1"]},
]
FOLDNET = [
    {"role": "user", "content": "What is FoldNet?"},
    {"role": "assistant", "content": "A model.", "paper_ids": ["rec#2"]},
]


@pytest.mark.parametrize(
    ("question", "history", "listed"),
    [
        ("What else did they write?", CACHEZIP, {"rec#2"}),  # the discussed paper's authors' other papers
        ("Which other papers did Ada Lovelace write?", FOLDNET, {"rec#1"}),
        ("Which papers are by these authors?", CACHEZIP, {"rec#1", "rec#2"}),
        ("What else did they write?", FOLDNET, {"rec#1"}),
        ("Which other papers did Alan Turing write?", CACHEZIP, set()),  # nothing else: said, not guessed
    ],
)
def test_their_papers_in_a_conversation(
    engine: Engine, question: str, history: list[dict[str, object]], listed: set[str]
) -> None:
    a = engine.ask(question, history=history)
    assert {c.paper_id for c in a.citations} == listed
    assert a.note == (FROM_RECORD if listed else "No other indexed paper is by them.")


def test_the_link_in_a_conversation(engine: Engine) -> None:
    assert engine.ask("Can I get the link?", history=CACHEZIP).answer.endswith(
        "https://openreview.net/forum?id=zip [1]"
    )


@pytest.mark.parametrize(
    ("question", "listed"),
    [
        ("Ada Lovelace's papers", True),
        ("List Ada Lovelace's papers", True),
        ("What did Ada Lovelace write?", True),
        ("papers by Ada Lovelace", True),
        ("Which papers are by Lovelace et al.?", True),  # her first-author papers
        ("What else did Ada Lovelace write?", True),
        ("Which papers are by Babbage et al.?", False),
        # a question about what one of her papers says is not a request for the list
        ("How many folds does Ada Lovelace's work design?", False),
        ("What does the paper by Ada Lovelace say about protein backbones?", False),
        ("Show me the papers by Ada Lovelace", True),
        ("Which papers are by Ada Lovelace or Alan Turing?", True),  # each one's
        # what the paper by her is, not its record
        ("Tell me about the paper by Ada Lovelace", False),
        ("What is the work by Ada Lovelace about?", False),
    ],
)
def test_asked_authors_only_when_the_list_is_asked(engine: Engine, question: str, listed: bool) -> None:
    assert (asked_authors(question, engine.retriever.snapshot) == ["rec#1", "rec#2"]) is listed


def test_the_papers_of_two_authors_are_those_they_wrote_together(engine: Engine) -> None:
    assert asked_authors("Which papers are by Ada Lovelace and Alan Turing?", engine.retriever.snapshot) == ["rec#1"]


def test_an_llm_backend_answers_from_the_records_without_the_llm(engine: Engine) -> None:
    llm = ScriptedLLM("Someone else wrote it [1].")
    a = ask(Query(question="Who wrote CacheZip?"), backend="local", retriever=engine.retriever, llm=llm)
    assert llm.calls == 0 and "Alan Turing" in a.answer


def test_the_link_and_the_venue_of_a_named_paper(engine: Engine) -> None:
    a = engine.ask("Give me the link to the CacheZip paper")
    assert a.answer == "“CacheZip: Compressing Key-Value Caches” is at https://openreview.net/forum?id=zip [1]"
    assert engine.ask("When was CacheZip published?").answer.endswith("is from ICML 2025. [1]")
    assert engine.ask("When was FoldNet published?").refused  # its record has no venue


def test_the_title_of_a_named_paper(engine: Engine) -> None:
    a = engine.ask("What is the title of the CacheZip paper?")
    assert a.answer == "The paper's title is “CacheZip: Compressing Key-Value Caches”. [1]" and a.note == FROM_RECORD


def test_the_first_and_the_last_author(engine: Engine) -> None:
    last = engine.ask("Who is the last author of CacheZip?")
    assert last.answer == "The last author of “CacheZip: Compressing Key-Value Caches” is Alan Turing. [1]"
    assert last.note == FROM_RECORD and {c.paper_id for c in last.citations} == {"rec#1"}
    assert engine.ask("Who is the first author of CacheZip?").answer.endswith("is Ada Lovelace. [1]")
