"""A conversation turn's plain English and generic title phrases name no paper."""

from rag.index.mentions import Mentions
from rag.index.vocabulary import Vocabulary
from rag.types import Paper


def _paper(i: int, title: str, abstract: str) -> Paper:
    return Paper(paper_id=f"c#{i}", source="c", position=i, abstract=abstract, label=title, title=title)


PAPERS = {
    p.paper_id: p
    for p in [
        _paper(1, "Does In-Context Learning Really Learn?", "We test whether in-context learning learns tasks."),
        _paper(2, "A Plate Recognition Method Based on Attention", "We read plates with a method based on attention."),
        _paper(3, "A Face Restoration Method Based on Priors", "We restore faces with a method based on priors."),
        _paper(4, "Upcycling Dense Checkpoints", "We reuse dense checkpoints for sparse experts."),
        *[_paper(i, f"Generic Study {i}", "A method based on a model.") for i in range(5, 25)],
    ]
}
MENTIONS = Mentions(PAPERS, Vocabulary(PAPERS), naming=set())


def test_a_common_english_word_of_one_title_names_nothing() -> None:
    assert MENTIONS.find("Is the KL divergence really the best choice?") == []


def test_a_rare_technical_word_of_one_title_names_its_paper() -> None:
    assert MENTIONS.find("Is upcycling worth it?") == ["c#4"]


def test_a_run_of_generic_title_words_names_nothing() -> None:
    assert MENTIONS.find("The authors propose a general method based on this idea.") == []
