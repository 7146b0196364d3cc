"""The data types of the pipeline, defined once."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

REFUSAL = "The indexed abstracts do not contain the answer to this question."


BackendName = Literal["extractive", "local", "openai"]
BACKENDS: tuple[str, ...] = get_args(BackendName)


class Query(BaseModel):
    """The per-question options every answer path shares."""

    model_config = ConfigDict(frozen=True)
    question: str
    history: list[dict[str, object]] | None = None
    top_k: int = 5
    papers: list[str] | None = None
    files: list[str] | None = None
    explain: bool = False
    cache: bool = True


class Paper(BaseModel):
    """One abstract with its identity and optional metadata."""

    paper_id: str
    source: str = Field(description="File stem the paper came from.")
    position: int = Field(description="1-based position among the file's abstracts.")
    abstract: str = Field(description="Original text, untouched.")
    label: str = ""
    title: str | None = None
    authors: list[str] | None = None
    url: str | None = None
    venue: str | None = None
    year: int | None = None


class SentenceHit(BaseModel):
    """A sentence retrieved for a question, with its scores."""

    chunk_id: str
    paper_id: str
    sent_index: int
    quote: str = Field(description="Original sentence sliced from the abstract.")
    text: str
    dense: float | None = None
    bm25: float | None = None
    fused: float = 0.0


class Hit(BaseModel):
    """A retrieved paper: id, score and its best matching sentences."""

    paper_id: str
    label: str
    title: str | None = None
    score: float
    dense: float = Field(0.0, description="Cosine of the question with the paper's mean sentence vector.")
    bm25: float = Field(0.0, description="BM25 of the question against the whole abstract.")
    sentence_score: float = Field(0.0, description="Best fused sentence score.")
    best_cosine: float = Field(0.0, description="Best cosine of the question with one of its sentences.")
    sentences: list[SentenceHit] = Field(default_factory=list)


class Citation(BaseModel):
    n: int
    paper_id: str
    label: str
    title: str | None = None
    quote: str = Field(description="Verbatim sentence of the abstract (metrics match on it).")
    authors: list[str] | None = None
    url: str | None = None
    venue: str | None = None
    display: str = Field("", description="The quote as a person reads it: LaTeX and markdown made readable.")


class Source(BaseModel):
    paper_id: str
    score: float


class Closest(BaseModel):
    paper_id: str
    label: str
    score: float
    title: str | None = None
    authors: list[str] | None = None
    url: str | None = None


class SentenceCheck(BaseModel):
    """One answer sentence as verified: its citations and the sentence it rests on."""

    text: str
    citations: list[int] = Field(default_factory=list)
    supported: bool
    evidence_quote: str | None = None
    reason: str | None = Field(None, description="Why the judge kept or dropped the sentence.")


class Answer(BaseModel):
    """What `rag ask --json` prints."""

    question: str
    answer: str
    refused: bool
    answer_display: str = Field("", description="`answer` as a person reads it (LaTeX and markdown made readable).")
    backend: str
    latency_ms: float
    citations: list[Citation] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    closest: list[Closest] = Field(default_factory=list)
    sentences: list[SentenceCheck] = Field(default_factory=list)
    grounding: float = Field(1.0, description="Share of answer sentences supported by their citations.")
    answer_source: str = Field("extractive", description='"llm", "fallback" or "extractive".')
    backend_error: str | None = Field(None, description="Why the LLM answer was replaced by the extractive one.")
    first_token_ms: float | None = Field(None, description="Time to the LLM's first token (LLM backends).")
    explain: list[str] | None = Field(None, description="Why the evidence was chosen (with --explain).")
    note: str | None = None

    def to_json(self) -> dict[str, object]:
        """The `rag ask --json` object: contract fields always, optional extras only when set."""
        data: dict[str, object] = self.model_dump(mode="json")
        for k in ("explain", "note", "backend_error", "first_token_ms"):
            if data.get(k) is None:
                data.pop(k, None)
        return data
