"""Judge v18: one name written two ways, numbers as "half a million" or "two and a half",
formulas without digits, plain paraphrase words, two terms that changed places, and a kind of
data or family of methods the evidence never names."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.judge import judge
from rag.answer.judge_forms import in_evidence_form
from rag.answer.judge_numbers import missing_number


@pytest.mark.parametrize(
    ("claim", "evidence", "rewritten"),
    [
        ("more accurate optimal transport distances", "more accurate OT distances", "more accurate OT distances"),
        ("two-layer CNNs", "two-layer convolutional neural networks", "two-layer convolutional neural networks"),
        ("a Mixture of Experts layer", "MoE layers", "a MoE layer"),
        ("the state of the art", "state-of-the-art results", "the state-of-the-art"),
        ("supervised fine-tuning", "supervised finetuning", "supervised finetuning"),
        ("an improvement in AI", "an improvement", "an improvement in AI"),  # two short words spell no acronym
    ],
)
def test_claim_in_evidence_form(claim: str, evidence: str, rewritten: str) -> None:
    assert in_evidence_form(claim, evidence)[0] == rewritten


@pytest.mark.parametrize(
    ("claim", "evidence", "missing"),
    [
        ("It is trained on half a million papers.", "It is trained on 500K papers.", None),
        ("It is trained on half a million papers.", "It is trained on 50K papers.", "500000"),
        ("It translates two and a half times as many programs.", "It translates 2.5x more programs.", None),
        ("It translates three and a half times as many programs.", "It translates 2.5x more programs.", "3.5"),
        ("A speedup of two orders of magnitude.", "A two order-of-magnitude speedup.", None),
        ("It needs $\\Theta(\\log k)$ rounds.", "It needs $\\Theta(\\log \\log k)$ rounds.", "$\\Theta(\\log k)$"),
    ],
)
def test_number_forms(claim: str, evidence: str, missing: str | None) -> None:
    assert missing_number(claim, evidence) == missing


@pytest.mark.parametrize(
    ("claim", "evidence", "supported"),
    [
        # the faithful twins: a spelled-out acronym, plain paraphrase words, "both" for a negated "or"
        (
            "The learned ground metric gives more accurate optimal transport distances.",
            "The learned ground metric enables more accurate OT distances.",
            True,
        ),
        (
            "Synchronizing parameter subsets one after another instead of all simultaneously lowers peak bandwidth.",
            "We synchronize only subsets of parameters in sequence, rather than all at once, which reduces peak bandwidth.",
            True,
        ),
        (
            "Fine-tuning cuts refusals while preserving both safety and general abilities.",
            "Finetuning reduces refusals without compromising safety or general capabilities.",
            True,
        ),
        # the unfaithful ones: two terms exchanged around a reworded verb, an opposite predicate
        (
            "Out-of-sample error decays optimally, whereas in-sample error incurs an additional term.",
            "In-sample error decays optimally, whereas out-of-sample error incurs an additional term.",
            False,
        ),
        (
            "Imbalanced distributions prolong the plateau.",
            "Imbalanced distributions shorten the plateau.",
            False,
        ),
        (
            "The planner relies on values estimated before allocating items.",
            "The planner relies on values estimated after allocating items.",
            False,
        ),
        # "none of which" negates what follows; "virtually every" claims more than "many"; a dropped "hope"
        ("It proposes advances, none of which target localization.", "It improves localization with advances.", False),
        (
            "Forecasting is critical to virtually every application.",
            "Forecasting is critical in many applications.",
            False,
        ),
        (
            "TimeFuse improves almost universally on the models.",
            "TimeFuse achieves near-universal improvement over the models.",
            True,
        ),
        (
            "The insights revolutionize social network services.",
            "We hope the insights revolutionize social network services.",
            False,
        ),
        # another kind of data or family of methods in the claim: a swapped name
        (
            "The recipe extends a pre-trained text-to-video diffusion model to image editing tasks.",
            "The recipe extends a pre-trained text-to-image diffusion model to image editing tasks.",
            False,
        ),
        ("Neural ODEs model graph-structured data well.", "Neural ODEs model time series well.", False),
        ("Pruning large language models barely changes perplexity.", "Pruning LLMs barely changes perplexity.", True),
    ],
)
def test_judge_v18(claim: str, evidence: str, supported: bool) -> None:
    assert judge(claim, evidence, cosine=0.9).supported is supported


@settings(derandomize=True, deadline=10000)
@given(st.text(max_size=200), st.text(max_size=200))
def test_in_evidence_form_never_raises(claim: str, evidence: str) -> None:
    c, e = in_evidence_form(claim, evidence)
    assert isinstance(c, str) and isinstance(e, str)
