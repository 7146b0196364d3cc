import pytest

from rag.text.normalize import clean, content_stems, match_form, normalize_markdown, numbers, sentence_spans


def split(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We gain 31.5% on ImageNet. This is good.", ["We gain 31.5% on ImageNet.", "This is good."]),
        ("Methods, e.g. SGD, fail. We fix them.", ["Methods, e.g. SGD, fail.", "We fix them."]),
        ("As Smith et al. showed, it works. We test it.", ["As Smith et al. showed, it works.", "We test it."]),
        ("The rate is $O(n^{1.5})$, i.e. fast. We prove it.", ["The rate is $O(n^{1.5})$, i.e. fast.", "We prove it."]),
        ("See Fig. 2 for details. We use U.S. data.", ["See Fig. 2 for details.", "We use U.S. data."]),
        (
            "We find two issues: (i) vanishing gradients and (ii) rank collapse. We fix both.",
            ["We find two issues: (i) vanishing gradients and (ii) rank collapse.", "We fix both."],
        ),
        ("Prior work on *bias*. Recent studies show *x* -- a gap. Ok.", None),
        (
            "It matches the pass bound of Jin et al. [ICML'21] with one pass. We also prove a lower bound.",
            ["It matches the pass bound of Jin et al. [ICML'21] with one pass.", "We also prove a lower bound."],
        ),
        (
            "Building on Gibbs et al. (2023), we extend it. It works well.",
            ["Building on Gibbs et al. (2023), we extend it.", "It works well."],
        ),
        (
            "As Koch et al.\u2019s bound fails, we fix it. Done here now.",
            ["As Koch et al.\u2019s bound fails, we fix it.", "Done here now."],
        ),
        (
            "We study the setting of Bousquet et al. Unlike prior work, we allow noise.",
            ["We study the setting of Bousquet et al.", "Unlike prior work, we allow noise."],
        ),
        # LaTeX's control space after a period: "vs.\\ previous" ends no sentence
        (
            "It reaches 65.07\\% (vs.\\ previous SOTA 24.68\\%) recall. It also wins.",
            ["It reaches 65.07\\% (vs.\\ previous SOTA 24.68\\%) recall.", "It also wins."],
        ),
        ("", []),
    ],
)
def test_sentence_spans(text: str, expected: list[str] | None) -> None:
    got = split(text)
    if expected is not None:
        assert got == expected
    # Spans always slice the original text and cover every word of it.
    assert " ".join(got).split() == text.split()


def test_markdown_normalised_but_original_kept() -> None:
    raw = "The framework, called **TraceGrad**, uses *trace* and **grad**ient."
    assert normalize_markdown(raw) == "The framework, called TraceGrad, uses trace and gradient."
    assert clean("a  ``quoted''  word") == 'a "quoted" word'
    assert match_form("The **Trace**_Grad_ `x`") == "the tracegrad x"


@pytest.mark.parametrize(
    ("text", "nums"),
    [("6,658 questions", {"6658"}), ("31.5% and 2x", {"31.5", "2"}), ("no numbers", set()), ("v1.5-fold", set())],
)
def test_numbers(text: str, nums: set[str]) -> None:
    assert numbers(text) == nums


@pytest.mark.parametrize(
    ("a", "b"),
    [("preconditioner", "preconditioning"), ("preconditioners", "preconditioned"), ("optimizer", "optimization")],
)
def test_word_forms_stem_together(a: str, b: str) -> None:
    assert content_stems(a) == content_stems(b)
