"""A paper named by its authors ("What did Lovelace et al. find?"): read as the papers of that
author, not as a name no abstract has (`rag.answer.authored`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.authored import _as_named, author_ref
from rag.answer.overview import refers_back, subject
from rag.engine import Engine
from rag.index.authors import SurnameIndex, surname
from rag.types import Paper
from tests.conftest import with_records

PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec that "
    "compresses key-value caches. We find that CacheZip halves memory at equal accuracy.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet designs 120 novel folds.",
    "Sparse rewards make exploration hard. We study curiosity bonuses, improving on Hopper et al. (2021). "
    "Curiosity solves 12 of 15 hard exploration games.",
]
META = [
    {"paper_id": "au#1", "title": "CacheZip: Compressing Key-Value Caches", "authors": ["Ada Lovelace", "Alan Turing"]},
    {"paper_id": "au#2", "title": "FoldNet: Designing Protein Backbones", "authors": ["Grace Hopper", "Ada Lovelace"]},
    {"paper_id": "au#3", "title": "Curiosity for Exploration", "authors": ["Emmy Noether"]},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "au", "au", PAPERS, META)


@pytest.mark.parametrize(
    ("question", "papers", "rewritten"),
    [
        # one paper: named as the user would name it, by its coined name (or its title's words)
        ("What did Lovelace et al. find?", ["au#1"], "What did the CacheZip paper find?"),  # the first author
        ("What does the paper by Lovelace et al. (2025) show?", ["au#1"], "What does the CacheZip paper show?"),
        ("What is Lovelace et al.'s main finding?", ["au#1"], "What is the CacheZip paper's main finding?"),
        ("Summarize Lovelace et al.'s paper", ["au#1"], "Summarize the CacheZip paper"),
        ("What did Turing et al. find?", ["au#1"], "What did the CacheZip paper find?"),  # no first author: any
        ("What did Ada Lovelace et al. find?", ["au#1"], "What did the CacheZip paper find?"),  # first author
        ("What did Lovelace and Turing find?", ["au#1"], "What did the CacheZip paper find?"),  # both authors
        ("What does Noether's group solve?", ["au#3"], "What does the Curiosity for Exploration paper solve?"),
        ("In the Noether paper, what is solved?", ["au#3"], "In the Curiosity for Exploration paper, what is solved?"),
        # several papers: "they", answered from among them
        ("How much memory does Ada Lovelace save?", ["au#1", "au#2"], "How much memory does they save?"),
        ("What did Ada Lovelace's papers find?", ["au#1", "au#2"], "What did their papers find?"),
        ("What did Ada Lovelace and colleagues find?", ["au#1", "au#2"], "What did they find?"),
        ("What games did Hopper et al. use?", None, None),  # an abstract cites "Hopper et al.": maybe that work
        ("What did Hopper et al. find?", ["au#2"], "What did the FoldNet paper find?"),  # ...unless asked of them only
        ("What did Babbage et al. find?", None, None),  # no indexed author of that name
        # the paper is named itself: the reference is left out; a paper of theirs it is not or
        # does not write: work that paper cites
        ("What does CacheZip by Lovelace et al. find?", ["au#1"], "What does CacheZip find?"),
        (
            "What guarantee did Lovelace and colleagues prove for CacheZip?",
            ["au#1"],
            "What guarantee did the CacheZip paper prove for CacheZip?",
        ),
        ("What does FoldNet by Noether et al. find?", None, None),
        ("What did Lovelace find?", None, None),  # a surname alone, without "et al."
        ("Compare Lovelace and Babbage", None, None),  # one of two surnames unknown
        # full names joined by "and": the papers they wrote together, else each one's
        ("What did Ada Lovelace and Alan Turing find?", ["au#1"], "What did the CacheZip paper find?"),
        ("What did Ada Lovelace and Emmy Noether find?", ["au#1", "au#2", "au#3"], "What did they find?"),
        # "study" after an auxiliary is the verb, not "their study"
        ("What did Ada Lovelace study?", ["au#1", "au#2"], "What did they study?"),
        ("What did the Noether study find?", ["au#3"], "What did the Curiosity for Exploration paper find?"),
        # the question made whole again around "they"
        ("Which of Ada Lovelace's papers is about proteins?", ["au#1", "au#2"], "Which papers is about proteins?"),
        ("What are the two papers by Ada Lovelace about?", ["au#1", "au#2"], "What are their papers about?"),
        ("Has Ada Lovelace worked on robots?", ["au#1", "au#2"], "Have they worked on robots?"),
    ],
)
def test_author_ref(engine: Engine, question: str, papers: list[str] | None, rewritten: str | None) -> None:
    ref = author_ref(question, engine.retriever.snapshot)
    assert (ref.papers, ref.question) == (papers, rewritten) if ref else papers is None


def test_surnames() -> None:
    authors = [["A Chan Santiago", "B Lee"], ["C Lee"]]
    p = [Paper(paper_id=str(i), source="t", position=1, abstract="x", authors=a) for i, a in enumerate(authors)]
    index = SurnameIndex({x.paper_id: x for x in p})
    assert surname("Jeffrey A Chan Santiago") == "santiago"
    assert index.papers_of("Santiago") == ["0"] and index.papers_of("Lee") == ["1"]  # first authors first
    assert index.papers_of("Nobody") == []


def test_author_ref_never_raises(engine: Engine) -> None:
    snap = engine.retriever.snapshot

    @given(st.text(max_size=80) | st.from_regex(r"[A-Z][a-z]{2,8}( [A-Z][a-z]+)? et al\.?('s)?", fullmatch=True))
    def check(question: str) -> None:
        ref = author_ref(question, snap)
        assert ref is None or (ref.papers and set(ref.papers) <= set(snap.papers))

    check()


@pytest.mark.parametrize(
    ("question", "back"),
    [
        ("What did they find?", True),
        ("What is their main finding?", True),
        ("What does their paper conclude?", True),
        ("What did they find about cats?", False),
        ("What were the results?", False),
    ],
)
def test_findings_refer_back(question: str, back: bool) -> None:
    s = subject(question, about=True)
    assert (s is not None and refers_back(s)) is back


def test_a_paper_asked_by_its_authors_is_answered_from_it(engine: Engine) -> None:
    a = engine.ask("What did Lovelace et al. find?")
    assert not a.refused and {c.paper_id for c in a.citations} == {"au#1"}
    said = "Read “Lovelace et al.” as “CacheZip: Compressing Key-Value Caches” (Ada Lovelace et al.)."
    assert a.note and a.note.startswith(said)


def test_a_paper_named_by_its_authors_is_answered_as_if_named(engine: Engine) -> None:
    # the same bar as naming it: a detail it does not give is refused as it would be then
    by_authors = engine.ask("What did Lovelace et al. find about cats?")
    by_name = engine.ask("What did the CacheZip paper find about cats?")
    assert (by_authors.refused, by_authors.answer) == (by_name.refused, by_name.answer)


def test_what_a_prolific_author_found_is_answered_from_each_paper(fake_engine: Engine, tmp_path: Path) -> None:
    """Asked what they found, an author of four papers is answered from them, not refused."""
    topics = ["caches", "proteins", "robots", "graphs"]
    papers = [
        f"We study {t}. We introduce Tool{i}, a method for {t}. Tool{i} halves the cost of {t}."
        for i, t in enumerate(topics)
    ]
    meta = [{"paper_id": f"pr#{i + 1}", "title": f"Tool{i}", "authors": ["Ada B. Lovelace"]} for i in range(4)]
    engine = with_records(fake_engine, tmp_path / "pr", "pr", papers, meta)
    a = engine.ask("What did Ada Lovelace find?")
    assert not a.refused and len({c.paper_id for c in a.citations}) >= 2
    assert a.note and a.note.startswith("Answered among the 4 indexed papers by “Ada Lovelace”.")


def test_the_papers_a_user_chose_bound_the_reference(engine: Engine) -> None:
    a = engine.ask("What did Ada Lovelace find?", papers=["au#2"])
    assert {c.paper_id for c in a.citations} <= {"au#2"}


def test_papers_by_an_author_on_a_topic_are_not_all_their_papers(engine: Engine) -> None:
    a = engine.ask("What does the paper by Ada Lovelace say about protein backbones?")
    assert {c.paper_id for c in a.citations} == {"au#2"}


def test_a_conversation_about_another_paper_does_not_answer_for_the_authors(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What is the curiosity paper?"},
        {"role": "assistant", "content": "It studies curiosity bonuses for exploration.", "paper_ids": ["au#3"]},
    ]
    a = engine.ask("And what did Ada Lovelace find?", history=history)
    assert a.note and "Ada Lovelace" in a.note
    assert {c.paper_id for c in a.citations} <= {"au#1", "au#2"}


@pytest.mark.parametrize(
    ("title", "label", "coined", "named"),
    [
        ("CacheZip: Compressing Key-Value Caches", "CacheZip", True, "the CacheZip paper"),
        # a colon in a question reads as a clause: a title's words without it
        (
            "MGD$^3$ : Mode-Guided Distillation",
            "MGD$^3$ : Mode-Guided Distillation",
            True,
            "the MGD 3 Mode Guided Distillation paper",
        ),
        ("The Dark Side of Forces", "The Dark Side of Forces", False, "the Dark Side of Forces paper"),
    ],
)
def test_one_paper_is_named_as_a_user_would(title: str, label: str, coined: bool, named: str) -> None:
    paper = Paper(paper_id="x#1", source="x", position=1, abstract="An abstract.", title=title, label=label)
    assert _as_named("they", paper, coined) == named
    assert _as_named("their", paper, coined) == f"{named}'s"


def test_a_paper_named_by_its_authors_is_compared_with_the_discussed_one(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What is the curiosity paper?"},
        {"role": "assistant", "content": "It studies curiosity bonuses for exploration.", "paper_ids": ["au#3"]},
    ]
    a = engine.ask("How does that compare to what Lovelace et al. propose?", history=history)
    assert {c.paper_id for c in a.citations} == {"au#1", "au#3"}


def test_a_surname_an_abstract_writes_only_as_a_plain_word_is_not_cited(fake_engine: Engine, tmp_path: Path) -> None:
    # "gross" (lowercase, and the stem of "Grosse") in another abstract cites nobody named Grosse
    papers = [*PAPERS, "We estimate gross margins of retailers with a new sampler."]
    meta = [*META, {"paper_id": "au#4", "title": "Sampling Margins", "authors": ["Julia Grosse"]}]
    engine = with_records(fake_engine, tmp_path / "g", "au", papers, meta)
    ref = author_ref("What sampler did Grosse and colleagues propose?", engine.retriever.snapshot)
    assert ref is not None and ref.papers == ["au#4"]
