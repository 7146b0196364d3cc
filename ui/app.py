"""Gradio chat app (first version: chat with cited answers and a sources panel)."""

from __future__ import annotations

import html
import logging
import os
import queue
import threading
from collections.abc import Iterator
from typing import Any

import rag  # noqa: F401  (offline environment first)

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr

from rag.engine import Engine
from rag.settings import Settings
from rag.types import Answer

log = logging.getLogger(__name__)

_engine: Engine | None = None
_engine_lock = threading.Lock()

EXAMPLES = [
    "Which optimizer equalizes each parameter's contribution to loss reduction for domain generalization?",
    "How many questions does SNS-Bench contain?",
    "Which papers deal with conformal prediction?",
    "What learning rate does GENIE use?",
]


def get_engine() -> Engine:
    """One engine per process, shared by every session; built on first use."""
    global _engine
    with _engine_lock:
        if _engine is None:
            engine = Engine(Settings())
            engine.ensure_index()
            _engine = engine
    return _engine


def sources_html(a: Answer, engine: Engine) -> str:
    """Cited papers with the supporting sentences highlighted; everything escaped."""
    papers = engine.retriever.snapshot.papers
    if a.refused:
        items = "".join(f"<li>{html.escape(c.label)} <code>{html.escape(c.paper_id)}</code></li>" for c in a.closest)
        return f"<p><b>Not in the abstracts.</b> Closest papers:</p><ul>{items}</ul>"
    out = []
    for n in sorted({c.n for c in a.citations}):
        cites = [c for c in a.citations if c.n == n]
        p = papers.get(cites[0].paper_id)
        if p is None:
            continue
        text = p.abstract
        spans = sorted((text.find(c.quote), len(c.quote)) for c in cites if text.find(c.quote) >= 0)
        parts, pos = [], 0
        for start, length in spans:
            parts.append(html.escape(text[pos:start]))
            parts.append(f"<mark>{html.escape(text[start : start + length])}</mark>")
            pos = start + length
        parts.append(html.escape(text[pos:]))
        title = f" — {html.escape(p.title)}" if p.title else ""
        out.append(
            f"<details open><summary>[{n}] <b>{html.escape(p.label)}</b>{title} "
            f"<code>{html.escape(p.paper_id)}</code></summary><p>{''.join(parts)}</p></details>"
        )
    return "".join(out)


def respond(
    message: str, history: list[dict[str, Any]], backend: str = "extractive", top_k: int = 5
) -> Iterator[tuple[list[dict[str, Any]], str, str]]:
    """Chat handler (a generator): the answer appears sentence by sentence as each one is
    verified, then the sources panel with the supporting sentences highlighted."""
    from rag.answer import ask

    engine = get_engine()
    message = (message or "").strip()
    if not message:
        yield history, "", ""
        return
    turns = [{"role": t["role"], "content": _text(t["content"])} for t in history if isinstance(t, dict)]
    shown = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": "…"}]
    yield list(shown), "", ""
    sentences: queue.Queue[str | None] = queue.Queue()
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["answer"] = ask(
                message[: engine.settings.max_question_chars],
                backend=backend,
                retriever=engine.retriever,
                llm=engine.llm(backend),
                llm_options=engine.llm_options(),
                on_sentence=sentences.put,
                history=turns,
                top_k=int(top_k),
            )
        except Exception as e:  # shown to the user as one line
            result["error"] = f"{type(e).__name__}: {e}"
        finally:
            sentences.put(None)

    threading.Thread(target=work, daemon=True).start()
    released: list[str] = []
    while (item := sentences.get()) is not None:
        released.append(item)
        shown[-1] = {"role": "assistant", "content": _escape(" ".join(released))}
        yield list(shown), "", ""
    if "error" in result:
        shown[-1] = {"role": "assistant", "content": _escape(f"Error: {result['error']}")}
        yield list(shown), "", ""
        return
    a: Answer = result["answer"]
    text = a.answer if a.refused else " ".join(released) or a.answer
    if a.backend_error:
        text += f"\n\n(The {backend} backend failed: {a.backend_error}. This answer comes from the evidence.)"
    shown[-1] = {"role": "assistant", "content": _escape(text)}
    yield list(shown), sources_html(a, engine), ""


def _text(content: Any) -> str:
    if isinstance(content, list):  # Gradio 6 message content parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def _escape(text: str) -> str:
    """Corpus text is data: never let it become HTML in the chat."""
    return html.escape(text, quote=False)


def build_demo() -> gr.Blocks:
    backends = Engine(Settings()).available_backends()  # cheap: no model or index is loaded
    with gr.Blocks(title="ICML 2025 abstracts — cited answers") as demo:
        gr.Markdown("## Ask the ICML 2025 abstracts\nEvery sentence of an answer cites the paper it comes from.")
        with gr.Row():
            with gr.Column(scale=3):
                chat = gr.Chatbot(label="Conversation", height=420)
                box = gr.Textbox(label="Question", placeholder="Ask about the papers…")
                with gr.Row():
                    send = gr.Button("Ask", variant="primary")
                    clear = gr.Button("Clear")
                with gr.Accordion("Settings", open=False):
                    backend = gr.Dropdown(backends, value="extractive", label="Backend")
                    top_k = gr.Slider(1, 20, value=5, step=1, label="Papers considered (top-k)")
                gr.Examples(EXAMPLES, inputs=box)
            with gr.Column(scale=2):
                gr.Markdown("### Sources")
                sources = gr.HTML()
        send.click(respond, [box, chat, backend, top_k], [chat, sources, box], api_name="ask")
        box.submit(respond, [box, chat, backend, top_k], [chat, sources, box])
        clear.click(lambda: ([], "", ""), None, [chat, sources, box])
    return demo


demo = build_demo()


def launch(host: str = "127.0.0.1", port: int = 7860) -> int:
    get_engine()  # index and load before the first visitor waits for it
    demo.queue(default_concurrency_limit=4).launch(server_name=host, server_port=port, share=False)
    return 0
