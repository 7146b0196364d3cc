"""The answerability check's thresholds: a "which papers" question needs less of its wording covered."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.accept import listed as _listed
from rag.answer.evidence import (
    LIST_QUOTED_TWICE,
    MIN_COSINE,
    MIN_COVERAGE,
    MULTI_MAX,
    MULTI_MIN_COSINE,
    MULTI_MIN_COVERAGE,
    Features,
    features,
)
from rag.answer.list_question import LIST_MAX, alternatives, asks_for_papers, counted_note, is_multi
from rag.index.vocabulary import Vocabulary
from rag.types import Hit, Paper


@pytest.mark.parametrize(
    ("cosine", "coverage", "multi", "answerable"),
    [
        (0.45, MIN_COVERAGE, False, True),
        (0.45, MULTI_MIN_COVERAGE, False, False),  # one paper: the question's terms must be there
        (0.45, MULTI_MIN_COVERAGE, True, True),  # a topic in a few words: part of them will do
        (0.45, MULTI_MIN_COVERAGE - 0.01, True, False),
        (MIN_COSINE - 0.01, 1.0, True, False),  # off-topic stays off-topic
        (0.60, 0.0, False, True),
    ],
)
def test_answerable(cosine: float, coverage: float, multi: bool, answerable: bool) -> None:
    f = Features(cosine=cosine, coverage=coverage, missing_detail=None, score=1.0, multi=multi)
    assert f.answerable() is answerable


def test_missing_detail_is_never_answerable() -> None:
    f = Features(cosine=0.9, coverage=1.0, missing_detail="a number", score=2.0, multi=True)
    assert not f.answerable()


@pytest.mark.parametrize(
    ("cosine", "coverage", "multi", "on_theme"),
    [
        (MIN_COSINE, 0.0, False, True),
        (MULTI_MIN_COSINE, MULTI_MIN_COVERAGE, True, True),  # a further paper of a list, looser
        (MULTI_MIN_COSINE, MULTI_MIN_COVERAGE, False, False),  # never for a single answer
        (MULTI_MIN_COSINE, MULTI_MIN_COVERAGE - 0.01, True, False),  # looser needs the terms
        (MULTI_MIN_COSINE - 0.01, 1.0, True, False),
    ],
)
def test_on_theme(cosine: float, coverage: float, multi: bool, on_theme: bool) -> None:
    f = Features(cosine=cosine, coverage=coverage, missing_detail=None, score=1.0, multi=multi)
    assert f.on_theme() is on_theme
    # the list is only answered when one paper answers on its own: a loose match never does
    assert not (f.answerable() and cosine < MIN_COSINE)


@pytest.mark.parametrize(
    ("cosine", "coverage", "missing", "lists"),
    [
        (MIN_COSINE, MULTI_MIN_COVERAGE, None, True),  # answers on its own
        (MULTI_MIN_COSINE, MIN_COVERAGE, None, True),  # names the topic in a long sentence
        (MULTI_MIN_COSINE, MIN_COVERAGE - 0.01, None, False),  # on the theme, but shares few terms
        (MULTI_MIN_COSINE - 0.01, 1.0, None, False),
        (0.9, 1.0, "a number", False),
    ],
)
def test_a_deep_list_tail(cosine: float, coverage: float, missing: str | None, lists: bool) -> None:
    f = Features(cosine=cosine, coverage=coverage, missing_detail=missing, score=1.0, multi=True)
    assert f.lists() is lists


@pytest.mark.parametrize(
    ("question", "subs"),
    [
        ("Which papers study quantization?", []),
        ("What does FoldNet do, or what does it beat?", []),  # not a "which papers" question
        (
            "Which papers draw on flow matching or on probability paths?",
            ["Which papers draw on flow matching?", "Which papers on probability paths?"],
        ),
        (
            "Which papers use graphs, or trees, or sets?",
            ["Which papers use graphs?", "Which papers trees?", "Which papers sets?"],
        ),
        ("Which papers use A or B or C or D?", ["Which papers use A?", "Which papers B?", "Which papers C?"]),
        ("Which papers use GNNs and/or kernels?", ["Which papers use GNNs?", "Which papers kernels?"]),
    ],
)
def test_alternatives(question: str, subs: list[str]) -> None:
    assert alternatives(question) == subs


@settings(derandomize=True, deadline=None)
@given(st.text(max_size=120))
def test_alternatives_are_which_papers_questions(tail: str) -> None:
    for sub in alternatives(f"Which papers {tail}"):
        assert sub.startswith("Which papers") and sub.endswith("?") and is_multi(sub)


def _run(*features: tuple[str, float, float, float]) -> list[tuple[Hit, list[tuple[str, str, float]], Features]]:
    return [
        (
            Hit(paper_id=pid, label=pid, score=score),
            [],
            Features(cosine=cos, coverage=cov, missing_detail=None, score=score, multi=True),
        )
        for pid, cos, cov, score in features
    ]


@pytest.mark.parametrize(
    ("whole", "answers_alternative", "listed"),
    [
        # Nothing answers the whole question and no alternative is answered: no list.
        (_run(("p1", 0.39, 0.56, 0.9)), False, []),
        # An alternative is answered, and a paper covers the whole question's terms
        # with a sentence just below the single-paper bar: listed.
        (_run(("p1", 0.39, 0.56, 0.9)), True, ["p1", "alt"]),
        # An alternative is answered, but the whole question's terms are barely covered
        # (the alternative was a fragment of a split phrase): no list.
        (_run(("p1", 0.46, 0.22, 0.9)), True, []),
        # A paper answers the whole question: listed as before.
        (_run(("p1", 0.60, 0.10, 1.0)), False, ["p1", "alt"]),
    ],
)
def test_a_list_needs_an_answer_to_the_question_or_to_an_alternative_that_covers_it(
    whole: list[tuple[Hit, list[tuple[str, str, float]], Features]], answers_alternative: bool, listed: list[str]
) -> None:
    alt = _run(("alt", 0.5, 0.5, 0.95))
    got = _listed(whole, alt, answers_alternative, deep=False)
    assert [a[0].paper_id for a in got] == listed


@pytest.mark.parametrize(
    ("question", "deep"),
    [
        ("Which papers study fairness of machine learning models?", True),
        ("Which works propose training methods robust to distribution shift?", True),
        ("List the studies that use graph neural networks.", True),
        # asked as a request or a count
        ("Show me papers about KV cache compression", True),
        ("I'm looking for papers on conformal prediction", True),
        ("How many papers are about diffusion models?", True),
        ("Does any paper use ImageNet?", True),  # whether any exists: the list answers it
        ("Do any of the papers study differential privacy?", True),
        ("Are any papers about exploration?", True),
        ("Does any method beat the baseline?", False),  # one paper's methods
        ("Does the paper use ImageNet?", False),
        ("papers on time series forecasting", True),
        ("Can you find studies of catastrophic forgetting?", True),
        ("Find work on equivariant neural networks", True),
        ("Show me research on KV cache compression", True),
        ("Find the work's main result", False),
        ("How many tasks are in the work about assessing capabilities?", False),  # one work
        ("Show me the work on equivariant networks", False),
        ("Recommend a paper on conformal prediction", False),  # one paper
        ("Show me the results of FoldNet", False),
        ("How many methods does FoldNet compare?", False),
        ("Which methods did they compare against?", False),  # a paper's methods, not papers
        ("What approaches does FoldNet use?", False),
        ("What does FoldNet generate?", False),
    ],
)
def test_asks_for_papers(question: str, deep: bool) -> None:
    assert asks_for_papers(question) is deep


def _quoted(run: list[tuple[Hit, list[tuple[str, str, float]], Features]]) -> list:
    return [(h, [("n1", "lead", 1.0), ("n2", "more", 0.5)], f) for h, _, f in run]


def test_a_deep_list_keeps_every_paper_that_answers_and_one_quote_past_the_first_six() -> None:
    # Ten papers that answer on their own, decreasing scores (most below the near-best ratio),
    # and two only on the theme (a looser sentence): those stay out of the tail.
    answering = [(f"a{i}", 0.6, 0.5, 1.0 - 0.08 * i) for i in range(10)]
    theme_only = [("t1", 0.35, 0.3, 0.9), ("t2", 0.35, 0.3, 0.2)]
    whole = _quoted(_run(answering[0], theme_only[0], *answering[1:], theme_only[1]))
    got = _listed(whole, [], False, deep=True)
    ids = [a[0].paper_id for a in got]
    assert set(ids) == {f"a{i}" for i in range(10)} | {"t1"}  # t1 ranks second, close to the best: the head
    assert len(ids) == len(set(ids))
    assert all(len(a[1]) == 2 for a in got[:LIST_QUOTED_TWICE]) and all(len(a[1]) == 1 for a in got[LIST_QUOTED_TWICE:])
    assert all(a[1][0][1] == "lead" for a in got)  # the lead quote is the one kept
    shallow = _listed(whole, [], False, deep=False)
    assert len(shallow) <= MULTI_MAX and [a[0].paper_id for a in shallow] == ids[: len(shallow)]


def test_a_deep_list_is_capped() -> None:
    whole = _run(*[(f"a{i}", 0.6, 0.5, 1.0) for i in range(LIST_MAX + 5)])
    assert len(_listed(whole, [], False, deep=True)) == LIST_MAX


def test_a_list_question_frame_words_no_candidate_uses_do_not_count() -> None:
    papers = {
        "p1": Paper(paper_id="p1", source="s", position=1, label="A", abstract="Noisy labels hurt training."),
        "p2": Paper(paper_id="p2", source="s", position=2, label="B", abstract="A sampler for diffusion models."),
    }
    vocab = Vocabulary(papers)
    question = "Which papers look at what happens when training labels are noisy?"
    hit = Hit(paper_id="p1", label="A", score=1.0, best_cosine=0.5)
    plain = features(question, hit, ["Noisy labels hurt training."], vocab, multi=True)
    attainable = vocab.paper_stems["p1"] | vocab.paper_stems["p2"]
    fair = features(question, hit, ["Noisy labels hurt training."], vocab, multi=True, attainable=attainable)
    assert plain.coverage < fair.coverage == 1.0


def test_past_the_head_a_list_runs_best_first_on_the_whole_question() -> None:
    # The head (near the best score), then every other paper by its score on the whole question;
    # an alternative's paper the whole question did not accept comes last, whatever its own score.
    whole = _quoted(
        _run(("h", 0.7, 0.6, 2.0), ("low", 0.6, 0.5, 1.0), ("alt-too", 0.6, 0.5, 1.2), ("high", 0.6, 0.5, 1.3))
    )
    alt = _quoted(_run(("alt-only", 0.6, 0.6, 1.9), ("alt-too", 0.6, 0.6, 1.8)))
    got = [a[0].paper_id for a in _listed(whole, alt, True, deep=True)]
    assert got == ["h", "high", "alt-too", "low", "alt-only"]


def test_past_the_head_the_whole_abstract_bm25_orders_papers_of_close_scores() -> None:
    # Two papers scored alike on the whole question: the one whose whole abstract matches the
    # question's words better (BM25, against the list's best) comes first, and the cap keeps it.
    # A clearly better score still wins over a higher BM25.
    def hit(pid: str, score: float, bm25: float) -> tuple[Hit, list[tuple[str, str, float]], Features]:
        (h, ev, f) = _quoted(_run((pid, 0.6, 0.5, score)))[0]
        return h.model_copy(update={"bm25": bm25}), ev, f

    head = hit("h", 3.0, 10.0)
    rest = [hit("close-low", 1.05, 1.0), hit("close-high", 1.0, 10.0), hit("better", 1.4, 0.0)]
    got = [a[0].paper_id for a in _listed([head, *rest], [], False, deep=True)]
    assert got == ["h", "better", "close-high", "close-low"]
    many = [hit(f"f{i}", 1.05, 0.0) for i in range(LIST_MAX)]
    capped = [a[0].paper_id for a in _listed([head, *many, hit("lexical", 1.0, 10.0)], [], False, deep=True)]
    assert "lexical" in capped and len(capped) == LIST_MAX


@pytest.mark.parametrize(
    ("question", "n", "note"),
    [
        ("How many papers are about diffusion models?", 3, "3 indexed papers answer this (the papers listed)."),
        ("how many studies use Koopman operators?", 1, "1 indexed paper answers this (the papers listed)."),
        (
            "How many papers study X?",
            60,
            "At least 60 indexed papers answer this (the papers listed; a list stops at 60).",
        ),
        (
            "Which papers study X?",
            60,
            "The list stops at 60 papers, closest first; more indexed papers may answer this, "
            "and a narrower question (a setting, a method, a result) lists them.",
        ),
        ("Which methods did it compare?", 60, None),  # a paper's list, not the index's
        ("How many papers study X?", 0, None),  # refused
        ("Which papers study X?", 3, None),
        ("How many tasks does FoldNet solve?", 1, None),
    ],
)
def test_counted_note(question: str, n: int, note: str | None) -> None:
    assert counted_note(question, n) == note
