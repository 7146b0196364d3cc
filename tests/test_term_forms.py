"""The same term in another form counts as used: an acronym for the words it stands for
(rag.answer.acronyms.acronym_stems), and a list question's rare two-word phrase names its topic
(rag.index.vocabulary.phrases, rag.answer.evidence.shares_rare_phrase)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.acronyms import ACRONYM_RUN_MAX, _initials_runs, acronym_stems
from rag.answer.evidence import Features, coverage, shares_rare_phrase
from rag.answer.selection import question_terms
from rag.index.vocabulary import Vocabulary, paper_stems, phrases
from rag.text.normalize import STOPWORDS
from rag.types import Paper


@pytest.mark.parametrize(
    ("question", "text", "found"),
    [
        # the question spells it out, the paper writes the acronym (plural or not)
        (
            "Which papers use graph neural networks?",
            "a technique for GNNs that drops edges",
            {"graph", "neural", "network"},
        ),
        ("Is it a Markov decision process?", "We study MDPs with constraints.", {"markov", "deci", "process"}),
        ("out-of-distribution generalization", "robust to OOD shifts", {"distribut"}),  # "of" is a letter
        ("learning from human feedback", "we align with RLHF", set()),  # a fragment of it is not it
        ("reinforcement learning from human feedback", "we use RLHF", {"reinforc", "learn", "human", "feedback"}),
        # the question writes the acronym, the paper spells it out
        ("How do LLM agents plan?", "Large language models plan poorly.", {"llm"}),
        ("How do LLMs plan?", "Large language models plan poorly.", {"llms"}),
        # the letters in another order, or words not side by side, are not the acronym
        ("networks of neural graphs", "GNNs", set()),
        ("How do LLM agents plan?", "language models that are large", set()),
        ("plain words only", "no acronyms here", set()),
    ],
)
def test_acronym_stems(question: str, text: str, found: set[str]) -> None:
    assert acronym_stems(question, text) == found


@given(st.text(max_size=80), st.text(max_size=200))
def test_acronym_stems_are_question_stems(question: str, text: str) -> None:
    out = acronym_stems(question, text)
    assert out <= set(question_terms(question)) | {s for s in out if s.isalnum()}


def _all_runs(words: list[str], letters: str) -> list[list[str]]:
    """Every run of 2..ACRONYM_RUN_MAX words, checked one by one: what `_initials_runs` must find."""
    out = []
    for i in range(len(words)):
        for j in range(i + 2, min(i + ACRONYM_RUN_MAX, len(words)) + 1):
            run = words[i:j]
            kept = [w for w in run if w not in STOPWORDS]
            if "".join(w[0] for w in run) == letters or (
                len(letters) > 2 and run[0] not in STOPWORDS and "".join(w[0] for w in kept) == letters
            ):
                out.append(run)
    return out


_RUN_WORDS = st.sampled_from(
    ["of", "the", "a", "to", "graph", "neural", "network", "out", "distribution", "gain", "net"]
)


@given(st.lists(_RUN_WORDS, max_size=14), st.text(alphabet="aognd t", min_size=2, max_size=7))
def test_initials_runs_are_every_run_that_spells_the_letters(words: list[str], letters: str) -> None:
    letters = letters.replace(" ", "") or "gn"
    assert list(_initials_runs(words, letters)) == _all_runs(words, letters)


def _vocab(abstracts: dict[str, str]) -> Vocabulary:
    return Vocabulary(
        {
            pid: Paper(paper_id=pid, source="s", position=i, label=pid, abstract=a)
            for i, (pid, a) in enumerate(abstracts.items())
        }
    )


def test_an_acronym_covers_the_words_it_stands_for() -> None:
    text = "We revisit edge dropping for GNNs."
    vocab = _vocab({"p": text, "q": "Molecules and proteins."})
    question = "Which papers use graph neural networks?"
    terms = question_terms(question)
    assert coverage(terms, "p", vocab, acronym_stems(question, text)) > coverage(terms, "p", vocab)


def test_phrases_are_adjacent_content_stems() -> None:
    assert phrases("Data augmentation groups.") == {"data augment", "augment group"}
    assert phrases("One.") == set()
    assert phrases("data, then augmentation; groups (of augmentation)") == set()  # not across punctuation
    assert phrases("a flow-matching loss") == {"flow match", "match loss"}  # a compound as its parts
    assert phrases("out-of-distribution data") == {"distribut data"}
    stems = paper_stems(Paper(paper_id="p", source="s", position=0, label="X", abstract="Fairness of models."))
    assert "fair model" in stems and "fair" in stems  # "of" between them is dropped


def test_vocabulary_keeps_phrases_apart_from_stems() -> None:
    vocab = _vocab({"a": "We study data augmentation.", "b": "Data is scarce; augmentation helps."})
    assert "data augment" in vocab.paper_phrases["a"] and "data augment" not in vocab.paper_phrases["b"]
    assert not any(" " in s for s in vocab.paper_stems["a"])
    assert vocab.df["data augment"] == 1 and vocab.df["data"] == 2


def test_a_rare_phrase_of_the_topic_is_shared() -> None:
    abstracts = {f"n{i}": f"Neural networks for task {i}." for i in range(200)}
    abstracts |= {"aug": "Neural networks trained with data augmentation.", "loose": "Data, then augmentation."}
    vocab = _vocab(abstracts)
    question = "Which papers examine data augmentation?"
    assert shares_rare_phrase(question, "aug", vocab)
    assert not shares_rare_phrase(question, "loose", vocab)  # both words, not as a phrase
    # a phrase most papers use is no topic: "neural network" is in 201 of 202
    assert not shares_rare_phrase("Which papers train neural networks?", "aug", vocab)
    # the frame ("which papers examine") is not the topic
    assert not shares_rare_phrase("Which papers examine", "aug", vocab)


def test_two_common_words_side_by_side_are_no_topic() -> None:
    # "task network" is in one paper of 202, but "task" and "network" are each in most of them
    abstracts = {f"n{i}": f"Neural networks for task {i}." for i in range(200)}
    abstracts |= {"pair": "One task network.", "aug": "Data augmentation."}
    vocab = _vocab(abstracts)
    assert not shares_rare_phrase("Which papers train a task network?", "pair", vocab)
    assert shares_rare_phrase("Which papers use data augmentation?", "aug", vocab)


def test_a_rare_phrase_lists_a_paper_far_from_the_question() -> None:
    far = Features(cosine=0.30, coverage=0.2, missing_detail=None, score=0.8, multi=True)
    assert not far.lists() and not far.on_theme()
    named = Features(cosine=0.30, coverage=0.2, missing_detail=None, score=0.8, multi=True, rare_phrase=True)
    assert named.on_theme()  # accepted beside the papers that answer, then listed
    assert Features(cosine=0.30, coverage=0.2, missing_detail=None, score=0.8, multi=True, rare_phrase=True).lists()
    lacking = Features(cosine=0.30, coverage=0.2, missing_detail="a number", score=0.8, multi=True, rare_phrase=True)
    assert not lacking.lists()
