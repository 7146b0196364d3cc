"""Retrieval and extractive answers on a small corpus with the fake embedder."""

import re
from pathlib import Path

import pytest

from rag.answer.evidence import is_referring
from rag.answer.list_question import asked_of, is_multi
from rag.answer.selection import is_availability
from rag.engine import Engine
from rag.text.normalize import match_form
from rag.types import REFUSAL
from tests.conftest import SMALL, write_corpus


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    fake_engine.ingest([tmp_path / "corpus", write_corpus(tmp_path / "more", "more", [*SMALL[2:], SMALL[0]])])
    return fake_engine


def test_ranking_is_deterministic_and_hits_carry_sentences(engine: Engine) -> None:
    a = engine.retriever.retrieve("protein backbone diffusion model")
    b = engine.retriever.retrieve("protein backbone diffusion model")
    assert [h.paper_id for h in a.hits] == [h.paper_id for h in b.hits]
    top = a.hits[0]
    assert top.paper_id == "small#2" and top.label == "FoldNet"
    assert top.sentences and "protein" in top.sentences[0].quote.lower()
    assert len(a.hits) == 7  # every paper, since fewer than 10


def test_filters_by_paper_and_file(engine: Engine) -> None:
    hits = engine.retriever.retrieve("graph neural network regularizer", files=["more"]).hits
    assert {h.paper_id.split("#")[0] for h in hits} == {"more"}
    assert hits[0].paper_id == "more#3"
    hits = engine.retriever.retrieve("quantization", papers=["small#1", "more#1"]).hits
    assert [h.paper_id for h in hits] == ["more#1", "small#1"]


def test_answer_cites_every_sentence_with_verbatim_quotes(engine: Engine) -> None:
    a = engine.ask("How many novel folds does FoldNet design?")
    assert not a.refused
    sentences = [s for s in a.answer.split("\n") if s]
    assert all(re.search(r"\[\d+\]$", s) for s in sentences)
    assert "120" in a.answer
    papers = engine.retriever.snapshot.papers
    for c in a.citations:
        assert c.quote in papers[c.paper_id].abstract  # sliced from the original text
        assert c.paper_id in [s.paper_id for s in a.sources]
    assert {int(n) for n in re.findall(r"\[(\d+)\]", a.answer)} == {c.n for c in a.citations}


def test_refusal_for_missing_detail_and_absent_topic(engine: Engine) -> None:
    for q in ("What learning rate does TinyQuant use?", "Which paper studies federated learning on phones?"):
        a = engine.ask(q)
        assert a.refused, q
        assert a.answer == REFUSAL and a.citations == []
        assert a.closest and a.closest[0].label


def test_multi_question_lists_papers(fake_engine: Engine, tmp_path: Path) -> None:
    assert is_multi("Which papers study quantization?")
    assert not is_multi("What does FoldNet generate?")
    # "the paper that …" describes one paper; "papers that …" asks for several
    assert not is_multi("Why does the paper that revisits conformal prediction argue this?")
    assert is_multi("Are there papers that revisit conformal prediction?")
    fake_engine.ingest([tmp_path / "corpus"])
    q = "Which papers study graph regularizers or language quantization?"
    a = fake_engine.ask(q, top_k=5)
    assert not a.refused
    lines = a.answer.splitlines()
    assert len(lines) >= 2 and all(line.startswith("- ") for line in lines)
    assert {c.label for c in a.citations} == {"GraphMix", "TinyQuant"}


@pytest.mark.parametrize(
    ("question", "multi"),
    [
        # After a singular noun, "studies" and "works" are verbs: one paper is asked for.
        ("Which paper studies quantization of language models?", False),
        ("What work studies exploration with sparse rewards?", False),
        ("Which method works best on phones?", False),
        ("Is there a paper that works on protein design?", False),
        ("Which studies quantize language models?", True),
        ("Which recent works study exploration?", True),
        ("Which of these studies use diffusion?", True),
        ("Which works study works on graphs?", True),
    ],
)
def test_studies_and_works_as_verbs_ask_for_one_paper(question: str, multi: bool) -> None:
    assert is_multi(question) is multi


def test_a_question_for_one_paper_gets_one_answer(fake_engine: Engine, tmp_path: Path) -> None:
    fake_engine.ingest([tmp_path / "corpus"])
    a = fake_engine.ask("Which paper studies quantization of language models for phones?")
    assert not a.answer.startswith("- ") and {c.paper_id for c in a.citations} == {"small#3"}


def test_multi_question_with_alternatives_lists_a_paper_for_each(fake_engine: Engine, tmp_path: Path) -> None:
    # Each alternative is covered by another paper, which matches the whole question only in part.
    fake_engine.ingest([tmp_path / "corpus"])
    q = "Which papers study curiosity bonuses for sparse rewards or quantization of language models for phones?"
    a = fake_engine.ask(q, top_k=5)
    assert {c.paper_id for c in a.citations} == {"small#3", "small#4"}
    assert {c.paper_id for c in a.citations} <= {s.paper_id for s in a.sources}


@pytest.mark.parametrize(
    ("question", "referring"),
    [
        ("How many bits does it use?", True),
        ("How does that compare to FoldNet?", True),  # "that" as the subject of "compare"
        ("Which paper shows that bits matter?", False),
        ("Is there a paper that compares bit widths?", False),
        # Without a verb, a question is asked of what the conversation is about.
        ("Which kernels?", True),
        ("And what datasets?", True),
        ("What about the memory cost?", True),
        ("Which datasets are used?", False),
        ("Which papers study quantization?", False),
        ("Which papers?", False),
    ],
)
def test_is_referring(question: str, referring: bool) -> None:
    assert is_referring(question) is referring


def test_followup_uses_history_paper_ids(engine: Engine) -> None:
    assert is_referring("How many bits does it use?")
    history = [
        {"role": "user", "content": "Tell me about the quantization paper."},
        {"role": "assistant", "content": "It compresses models.", "paper_ids": ["small#3"]},
    ]
    a = engine.ask("How many bits does it store weights in?", history=history)
    assert a.sources[0].paper_id == "small#3"
    assert "2 bits" in a.answer


def test_a_followup_restricted_to_other_papers_is_not_answered_from_the_discussed_one(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Tell me about the quantization paper."},
        {"role": "assistant", "content": "It compresses models.", "paper_ids": ["small#3"]},
    ]
    a = engine.ask("How many bits does it store weights in?", history=history, papers=["small#1", "small#2"])
    assert "small#3" not in {c.paper_id for c in a.citations} | {s.paper_id for s in a.sources}


def test_the_other_one_excludes_what_an_earlier_question_singled_out(engine: Engine) -> None:
    # The answer to "the first one …?" cites both papers (the second for contrast): "the other
    # one" afterwards still means the paper that question did not point at.
    both = ["small#3", "small#2"]
    history = [
        {"role": "user", "content": "Which papers shrink or generate things?"},
        {"role": "assistant", "content": "TinyQuant quantizes; FoldNet designs proteins.", "paper_ids": both},
        {"role": "user", "content": "The first one sounds closest. How many bits does it use?"},
        {"role": "assistant", "content": "It stores weights in 2 bits, unlike FoldNet.", "paper_ids": both},
    ]
    a = engine.ask("And the other one: how many folds does it design?", history=history)
    assert {c.paper_id for c in a.citations} == {"small#2"} and "120" in a.answer


def test_a_followup_may_name_a_discussed_paper_the_answer_never_writes(fake_engine: Engine, tmp_path: Path) -> None:
    # "Setting X aside": X is the conversation's other paper, not a name the answer must hold
    fake_engine.ingest([tmp_path / "corpus"])
    history = [
        {"role": "user", "content": "Which papers shrink or generate things?"},
        {
            "role": "assistant",
            "content": "TinyQuant quantizes; FoldNet designs proteins.",
            "paper_ids": ["small#3", "small#2"],
        },
    ]
    a = fake_engine.ask("Setting TinyQuant aside, how many folds does the other one design?", history=history)
    assert {c.paper_id for c in a.citations} == {"small#2"} and "120" in a.answer


def test_followup_from_text_only(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Which paper designs protein backbones?"},
        {"role": "assistant", "content": "FoldNet, a diffusion model for protein backbones."},
    ]
    a = engine.ask("How many folds did it design?", history=history)
    assert a.sources[0].paper_id == "small#2" and "120" in a.answer


def test_markers_in_source_text_never_become_citations(tmp_path: Path, fake_engine: Engine) -> None:
    abstract = "We propose MarkNet [7], a marker model. MarkNet improves results by 4% [2]."
    fake_engine.ingest([write_corpus(tmp_path / "m", "m", [abstract])])
    a = fake_engine.ask("How much does MarkNet improve results?")
    assert "[2]" not in a.answer and "(2)" in a.answer
    assert {c.n for c in a.citations} == {1}
    assert match_form(a.citations[0].quote) in match_form(abstract)


def test_best_cosine_covers_every_sentence_of_a_hit(engine: Engine) -> None:
    """A paper ranked by its name or title may have no sentence in the dense pool: its best
    cosine still comes from its own sentences, never 0 (which would refuse it)."""
    r = engine.retriever
    r.sentence_pool = 1  # only one sentence in the dense pool
    q = "FoldNet protein backbone diffusion model"
    hits = r.retrieve(q).hits
    qv = r.embed_query(q)
    for h in hits:
        ids = [n.node_id for n in r.snapshot.by_paper[h.paper_id]]
        assert h.best_cosine == pytest.approx(float((r.sentence_vectors(ids) @ qv).max()), abs=1e-5)


def test_every_hit_carries_its_exact_centroid_cosine(engine: Engine) -> None:
    """Past the depth of the paper-level dense ranking a hit's centroid cosine is still exact,
    never 0: a deep "which papers" list compares its papers by it."""
    r = engine.retriever
    r.paper_pool = 1
    snap = r.snapshot
    for q in ("graph model", "graph diffusion", "graph neural"):
        qv = r.embed_query(q)
        for k in (1, 2, 3):
            hits = r.retrieve(q, top_k=k, min_sources=k).hits
            assert len(hits) == k
            for h in hits:
                exact = float(snap.centroids[snap.paper_ids.index(h.paper_id)] @ qv)
                assert h.dense == pytest.approx(exact, abs=1e-5), (q, k, h.paper_id)


def test_a_conversation_moves_to_another_paper_only_when_it_clearly_answers(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Tell me about the protein paper."},
        {"role": "assistant", "content": "It designs folds.", "paper_ids": ["small#2"]},
    ]
    clear = engine.ask("How many hard games are solved?", history=history)
    assert "12 of 15" in clear.answer and "small#2" not in {c.paper_id for c in clear.citations}
    # Matched only loosely by another paper (alone it would be answered from it), and not
    # answered by the paper under discussion: refused, never cited to the protein paper.
    question = "How much of the accuracy is kept on reading comprehension on phones?"
    assert not engine.ask(question).refused
    loose = engine.ask(question, history=history)
    assert loose.refused and not loose.citations


CODED = (
    "Sparse attention lets transformers read long documents. We introduce StrideAttn, which skips blocks of "
    "tokens. StrideAttn halves memory at 64k tokens. The StrideAttn code is available at "
    "https://github.com/example/StrideAttn."
)


def test_a_code_link_is_evidence_only_when_the_question_asks_for_code(fake_engine: Engine, tmp_path: Path) -> None:
    fake_engine.ingest([write_corpus(tmp_path / "coded", "coded", [CODED])])
    about = fake_engine.ask("What does StrideAttn do with long documents?")
    assert not about.refused and all("github" not in c.quote for c in about.citations)
    code = fake_engine.ask("Where is the StrideAttn code available?")
    assert any("github" in c.quote for c in code.citations)


@pytest.mark.parametrize(
    ("sentence", "link"),
    [
        ("The source code is available at: https://github.com/x/y.", True),
        ("We open-source our code at http://github.com/a/b.", True),
        ("Code will be released.", True),
        ("Our implementation is publicly available.", True),
        ("Our code and data have been released on GitHub.", True),
        ("Project page: https://x.github.io/y", True),
        ("The model is available to anyone who trains it.", False),
        ("We show the data are available in many settings where labels are scarce.", False),
        (
            "We release a benchmark (https://z.org/x) of 1,000 logic puzzles derived from constraint problems of any size.",
            False,
        ),
        ("Experiments show our loss outperforms cross-entropy.", False),
        # a finding glued to a lowercase availability note (one chunk) is evidence
        ("Experiments on CIFAR-10-LT show gains. our code is available at https://github.com/x/y.", False),
        ("Code, e.g. scripts, is available at https://github.com/x/y.", True),
    ],
)
def test_availability_sentences(sentence: str, link: bool) -> None:
    assert is_availability(sentence) is link


@pytest.mark.parametrize(
    ("question", "multi"),
    [
        ("Which methods does it compare against?", True),
        ("What are the methods proposed for pruning?", True),
        ("Which two methods are proposed?", True),
        ("What kinds of methods are compared?", True),
        ("Which papers have code?", True),
        # the wh-word asks for something else; the methods are one paper's background
        ("What do existing approaches to distillation require that the new method avoids?", False),
        ("What limitation of prior methods does the approach address?", False),
        ("What do recent works on force fields claim?", False),
        ("Which tasks did they show it works on?", False),  # "works" the verb
    ],
)
def test_a_list_is_asked_only_by_the_wh_phrase(question: str, multi: bool) -> None:
    assert is_multi(question) is multi


@pytest.mark.parametrize(
    ("question", "labels", "one_paper"),
    [
        ("What kind of interpretability methods does the GENIE benchmark reward?", ["GENIE"], True),
        ("Which methods does GENIE compare against?", ["GENIE"], True),
        ("Which methods did GENIE-2 beat?", ["GENIE-2"], True),
        ("Which methods does it compare against?", [], False),  # no paper named
        ("Which approaches besides GENIE address forgetting?", ["GENIE"], False),  # a list beside it
        ("Which papers does GENIE cite?", ["GENIE"], False),  # a list of papers
        ("Which methods does GENIEX use?", ["GENIE"], False),  # another word
    ],
)
def test_a_list_asked_of_a_named_paper_is_about_that_paper(question: str, labels: list[str], one_paper: bool) -> None:
    assert asked_of(question, labels) is one_paper


def test_the_first_one_of_papers_named_one_turn_at_a_time(fake_engine: Engine, tmp_path: Path) -> None:
    # No answer listed both: "the first one" is the first the conversation named, not the last
    # one it was about (which answered, cited, from the wrong paper).
    history = [
        {"role": "user", "content": "Which paper designs protein backbones?"},
        {"role": "assistant", "content": "FoldNet, a diffusion model for protein backbones."},
        {"role": "user", "content": "And one that shrinks language models?"},
        {"role": "assistant", "content": "TinyQuant stores weights in few bits."},
    ]
    engine = fake_engine
    engine.ingest([tmp_path / "corpus"])
    a = engine.ask("How many folds did the first one design?", history=history)
    assert {c.paper_id for c in a.citations} == {"small#2"} and "120" in a.answer
    b = engine.ask("How many bits does the second one use?", history=history)
    assert {c.paper_id for c in b.citations} == {"small#3"}
    # "the first method" may be one of the last paper's methods: no pointer to a paper
    c = engine.ask("How many bits does the first method store weights in?", history=history)
    assert {x.paper_id for x in c.citations} == {"small#3"}
