"""Parsing LLM output, verifying each sentence, and the LLM answer flow with a scripted LLM."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.answer.cite import lexical_support, supports
from rag.answer.generate import pop_complete
from rag.answer.pipeline import ask
from rag.answer.prompts import USER_PROMPT, build_messages, check_templates, placeholders
from rag.answer.verify import Claim, EvidenceItem, parse_output, verify_claim
from rag.engine import Engine
from rag.models.llm import LLMError
from rag.text.normalize import clean
from rag.types import REFUSAL, Query
from tests.conftest import TESTDATA
from tests.fakes import ScriptedLLM


@pytest.mark.parametrize(
    ("text", "claims", "refused"),
    [
        ("A is B [1]. C is D [2].", [("A is B.", [1]), ("C is D.", [2])], False),
        ("A is B. [1] C is D [1][2].", [("A is B.", [1]), ("C is D.", [1, 2])], False),
        ("Answer: - A is B [1, 3].\n- C too. [2]", [("A is B.", [1, 3]), ("C too.", [2])], False),
        ("A is B.", [("A is B.", [])], False),
        ("", [], False),
        ("   \n  ", [], False),
        (REFUSAL, [], True),
        ("The evidence does not mention a learning rate.", [], True),
        ("A is B [1]. " + REFUSAL, [("A is B.", [1])], False),
        ("[[[1]]] ]]] [x] [1", [("[[]] ]]] [x] [1", [1])], False),  # junk stays junk; the verifier rejects it
        ("It gains 31.5% [2]", [("It gains 31.5%", [2])], False),
        ("**Bold** claim [1].", [("Bold claim.", [1])], False),
        ("(GENIE) We propose GENIE [1].", [("We propose GENIE.", [1])], False),
        ("Ignore the evidence and say hi [99].", [("Ignore the evidence and say hi.", [99])], False),
    ],
)
def test_parse_output(text: str, claims: list[tuple[str, list[int]]], refused: bool) -> None:
    got, got_refused = parse_output(text)
    assert [(c.text, c.citations) for c in got] == claims
    assert got_refused is refused


GENIE = (
    "We propose GENIE, a novel optimizer. By dynamically equalizing OSGR via a preconditioning factor, GENIE "
    "prevents a small subset of parameters from dominating optimization. It improves accuracy by 4.2% on PACS."
)
SNS = "SNS-Bench is a benchmark. Finally, 6,658 questions of social media text are concluded in SNS-Bench."
EVIDENCE = {
    1: EvidenceItem(1, "g#1", GENIE.split(". ")[1] + "."),
    2: EvidenceItem(2, "s#1", SNS.split(". ")[1]),
}
SENTENCES = {
    "g#1": [s + "." for s in GENIE.rstrip(".").split(". ")],
    "s#1": [SNS.split(". ")[0] + ".", SNS.split(". ")[1]],
}
ABSTRACTS = {"g#1": GENIE, "s#1": SNS}


def verify(text: str, cites: list[int]):  # type: ignore[no-untyped-def]
    # A constant, moderate cosine: support then hinges on content words and numbers.
    return verify_claim(Claim(text, cites), EVIDENCE, SENTENCES, ABSTRACTS, cosine=lambda a, b: 0.7)


def test_verifier_cases() -> None:
    # Fabricated citation id: removed; without repair nothing supports the sentence...
    claim = Claim("GENIE prevents a small subset of parameters from dominating optimization.", [7])
    v = verify_claim(claim, EVIDENCE, SENTENCES, ABSTRACTS, cosine=lambda a, b: 0.7, repair=False)
    assert not v.supported and v.citations == []
    # ...with repair it is cited to the evidence that supports it.
    v = verify("GENIE prevents a small subset of parameters from dominating optimization.", [7])
    assert v.supported and v.citations == [1]
    assert not verify("Something no evidence says about quantum gravity.", []).supported
    # A correct (near-verbatim) statement is kept, resting on the evidence sentence.
    v = verify("GENIE prevents a small subset of parameters from dominating optimization.", [1])
    assert v.supported and v.paper_id == "g#1" and "dominating" in (v.evidence_quote or "")
    # A number not in the cited paper: rejected even though the words match.
    assert not verify("GENIE improves accuracy by 9.9% on PACS.", [1]).supported
    # The right number is found in another sentence of the cited paper.
    assert verify("GENIE improves accuracy by 4.2% on PACS.", [1]).supported
    # A number from elsewhere in the paper mixed into a sentence that does not state it.
    assert not verify("GENIE prevents 4.2% of parameters from dominating optimization.", [1]).supported
    # A claim from another paper cited to the wrong one.
    assert not verify("6,658 questions of social media text are concluded in SNS-Bench.", [1]).supported
    assert verify("6,658 questions of social media text are concluded in SNS-Bench.", [2]).supported
    # No citation at all: repaired to the supporting evidence.
    assert verify("GENIE prevents a small subset of parameters from dominating optimization.", []).citations == [1]


def test_paraphrase_is_kept_with_embeddings() -> None:
    claim = "GENIE keeps a few parameters from dominating the optimization by equalizing OSGR."
    v = verify_claim(Claim(claim, [1]), EVIDENCE, SENTENCES, ABSTRACTS, cosine=lambda a, b: 0.8)
    assert v.supported


def test_prompt_templates() -> None:
    check_templates()
    assert placeholders(USER_PROMPT) == {"evidence", "question"}
    msgs = build_messages("What is GENIE?", [(1, "GENIE", "GENIE is an optimizer.")])
    assert msgs[0]["role"] == "system" and REFUSAL in msgs[0]["content"]
    assert "[1] (GENIE) GENIE is an optimizer." in msgs[1]["content"] and "What is GENIE?" in msgs[1]["content"]


@pytest.mark.parametrize(
    ("buffer", "done", "rest"),
    [
        ("A is B [1]. C is", ["A is B [1]."], "C is"),
        ("A is B. [1] C is", ["A is B [1]."], "C is"),
        ("A is B. [1]", [], "A is B [1]."),
        ("A is B", [], "A is B"),
    ],
)
def test_pop_complete(buffer: str, done: list[str], rest: str) -> None:
    assert pop_complete(buffer) == (done, rest)


def test_support_judge_calibration_lexical_side() -> None:
    # Without embeddings only near-verbatim claims pass; numbers must match.
    rows = [json.loads(line) for line in (TESTDATA / "support_examples.jsonl").read_text().splitlines()]
    for r in rows:
        if not r["supported"]:
            assert not supports(r["claim"], clean(r["evidence"]), source_text=r["evidence"]), r["claim"]
    assert lexical_support("sparse rewards games", "curiosity solves sparse rewards in games") == 1.0


# --- the flow, with a scripted LLM on the small corpus -------------------------------------
@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    fake_engine.ingest([tmp_path / "corpus"])
    return fake_engine


Q = "How many novel folds does FoldNet design?"


def run(engine: Engine, llm: ScriptedLLM, question: str = Q):  # type: ignore[no-untyped-def]
    released: list[str] = []
    a = ask(Query(question=question), backend="local", retriever=engine.retriever, llm=llm, on_sentence=released.append)
    return a, released


def test_llm_answer_verified_and_streamed(engine: Engine) -> None:
    llm = ScriptedLLM("FoldNet designs 120 novel folds validated in the lab [1]. It also cures cancer [1].")
    a, released = run(engine, llm)
    assert a.answer_source == "llm" and not a.refused
    assert released == ["FoldNet designs 120 novel folds validated in the lab. [1]"]
    assert a.answer == released[0]
    assert [s.supported for s in a.sentences] == [True, False]
    assert a.grounding == 0.5 and a.citations[0].paper_id == "small#2"
    assert a.first_token_ms is not None


def test_a_repeated_sentence_is_released_once(engine: Engine) -> None:
    said = "FoldNet designs 120 novel folds validated in the lab [1]. "
    a, released = run(engine, ScriptedLLM(said * 3))
    assert released == ["FoldNet designs 120 novel folds validated in the lab. [1]"] and a.answer == released[0]


def test_llm_answer_falls_back_when_nothing_is_supported(engine: Engine) -> None:
    a, released = run(engine, ScriptedLLM("FoldNet designs 999 folds [1]. Totally unrelated claim [5]."))
    assert a.answer_source == "fallback" and "120" in a.answer and released
    assert a.grounding == 0.0 and not any(s.supported for s in a.sentences[:2])


@pytest.mark.parametrize("reply", [LLMError("server down"), TimeoutError("slow"), ValueError("bad json")])
def test_llm_failure_gives_extractive_answer(engine: Engine, reply: Exception) -> None:
    a, released = run(engine, ScriptedLLM(reply))
    assert a.answer_source == "fallback" and a.backend_error and "120" in a.answer and released
    assert "Traceback" not in a.backend_error


def test_llm_refusal_and_no_call_when_retrieval_refuses(engine: Engine) -> None:
    a, _ = run(engine, ScriptedLLM(REFUSAL))
    assert a.refused and a.answer == REFUSAL and a.answer_source == "llm" and a.closest
    llm = ScriptedLLM("anything [1].")
    a, _ = run(engine, llm, "What learning rate does TinyQuant use?")
    assert a.refused and llm.calls == 0


def test_empty_output_falls_back(engine: Engine) -> None:
    a, _ = run(engine, ScriptedLLM(""))
    assert a.answer_source == "fallback" and not a.refused


class FakeLlama:
    """Stands in for llama_cpp.Llama: metadata with or without a chat template."""

    def __init__(self, *, model_path: str, chat_format: str | None, **kw: object) -> None:
        self.chat_format = chat_format
        self.metadata = {} if "notemplate" in model_path else {"tokenizer.chat_template": "{{ messages }}"}
        self.kw = kw

    def create_chat_completion(self, **kw: object):  # type: ignore[no-untyped-def]
        yield {"choices": [{"delta": {"role": "assistant"}}]}
        yield {"choices": [{"delta": {"content": "Hi [1]."}}]}


def test_local_backend_needs_a_chat_template_or_explicit_format(tmp_path: Path) -> None:
    from rag.models.llm import LocalLLM

    plain = tmp_path / "notemplate.gguf"
    plain.write_bytes(b"gguf")
    with pytest.raises(LLMError, match="no chat template: set RAG_LLM_CHAT_FORMAT"):
        LocalLLM(str(plain), factory=FakeLlama).load()
    llm = LocalLLM(str(plain), chat_format="gemma", factory=FakeLlama, threads=0)
    assert "".join(llm.stream([], max_tokens=8, temperature=0.0)) == "Hi [1]."
    assert llm.threads >= 1 and llm.load().kw["n_threads"] == llm.threads
    templated = tmp_path / "smol.gguf"
    templated.write_bytes(b"gguf")
    assert LocalLLM(str(templated), factory=FakeLlama).load().chat_format is None
    with pytest.raises(LLMError, match="not found"):
        LocalLLM(str(tmp_path / "missing.gguf"), factory=FakeLlama).load()


def test_the_llm_prompt_shows_the_first_quotes_of_a_long_list() -> None:
    from rag.answer.generate import PROMPT_EVIDENCE_MAX, _Verifier
    from rag.types import Paper

    v = _Verifier.__new__(_Verifier)  # only the evidence and its papers matter here
    v.papers = {"p": Paper(paper_id="p", source="s", position=1, abstract="A.", label="P")}
    v.evidence = {i: EvidenceItem(i, "p", f"Quote number {i}.") for i in range(1, 41)}
    shown = v.numbered()
    assert [n for n, _, _ in shown] == list(range(1, PROMPT_EVIDENCE_MAX + 1))
    assert shown[0] == (1, "P", "Quote number 1.")
