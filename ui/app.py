"""Gradio app: Chat, Papers and Evaluate tabs. `demo` is built at import; nothing heavy loads
until the first request (or `launch`, which warms the engine once the page is bound)."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import rag  # noqa: F401  (offline environment first)

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr

from rag.settings import Settings
from ui import chat, claims, evaluate, papers
from ui.layout import CITE_CSS, CITE_JS
from ui.state import start_warm_up

log = logging.getLogger(__name__)

EXAMPLES = [
    "Which optimizer equalizes each parameter's contribution to loss reduction for domain generalization?",
    "How many questions does SNS-Bench contain?",
    "Which papers deal with conformal prediction?",
    "What learning rate does GENIE use?",
]
CSS = "mark { background: #ffe58a; padding: 0 2px; } details.source { margin-bottom: .6em; } " + CITE_CSS


def _selected_paper(table: Any, evt: gr.SelectData) -> str:
    try:
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        return str(table.iloc[row, 0]) if hasattr(table, "iloc") else str(table[row][0])
    except Exception:
        return ""


def _on_like(evt: gr.LikeData) -> tuple[int | None, Any]:
    if evt.liked is False or evt.liked == "Dislike":
        return evt.index if isinstance(evt.index, int) else evt.index[0], gr.update(visible=True)
    return None, gr.update(visible=False)


def build_demo() -> gr.Blocks:
    backends = Settings().available_backends()  # cheap: no engine, model or index is loaded
    with gr.Blocks(title="ICML 2025 abstracts — cited answers") as demo:
        gr.Markdown("## Ask the ICML 2025 abstracts\nEvery sentence of an answer cites the paper it comes from.")
        with gr.Tab("Chat"):
            filters = _chat_tab(backends)
        with gr.Tab("Papers"):
            table = _papers_tab(filters)
        with gr.Tab("Evaluate"):
            _evaluate_tab(backends)
        demo.load(lambda: (gr.update(choices=chat.filter_choices()), papers.papers_table("")), None, [filters, table])
    return demo


def _chat_tab(backends: list[str]) -> gr.Dropdown:
    """Conversation, settings and the sources panel; returns the filter dropdown (the Papers
    tab refreshes its choices after an upload)."""
    answers = gr.State([])
    disliked = gr.State(None)
    with gr.Row():
        with gr.Column(scale=3):
            # Answers quote corpus text, which is untrusted: messages are escaped HTML
            # (ui.render.chat_html), never markdown, LaTeX or custom tags, so a
            # `[x](http://…)`, `![x](…)` or `$$\href{…}$$` in an abstract stays text.
            history = gr.Chatbot(
                label="Conversation",
                height=440,
                elem_id="chat",
                render_markdown=False,
                sanitize_html=True,
                latex_delimiters=[],
                allow_tags=False,
            )
            box = gr.Textbox(label="Question", placeholder="Ask about the papers…", elem_id="question")
            with gr.Row():
                send = gr.Button("Ask", variant="primary", elem_id="ask")
                clear = gr.Button("Clear conversation")
                copy = gr.Button("Copy answer (Markdown)")
                copy_bib = gr.Button("Copy BibTeX", elem_id="copy-bibtex")
            markdown = gr.Textbox(label="Answer as Markdown", lines=6, buttons=["copy"], visible=False)
            bib = gr.Textbox(
                label="BibTeX of the cited papers", lines=8, buttons=["copy"], visible=False, elem_id="bibtex"
            )
            with gr.Row(visible=False) as feedback_row:
                comment = gr.Textbox(label="What was wrong? (optional)", scale=4)
                send_feedback = gr.Button("Send feedback", scale=1)
            feedback_status = gr.Markdown()
            with gr.Accordion("Settings and filters", open=False):
                backend = gr.Dropdown(backends, value="extractive", label="Backend")
                top_k = gr.Slider(1, 20, value=5, step=1, label="Papers considered (top-k)")
                filters = gr.Dropdown([], multiselect=True, label="Only these papers or files")
            gr.Examples(EXAMPLES, inputs=box)
        with gr.Column(scale=2):
            gr.Markdown("### Sources")
            sources = gr.HTML(elem_id="sources")
    inputs = [box, history, backend, top_k, filters, answers]
    outputs = [history, sources, box, answers]
    send.click(chat.respond, inputs, outputs, api_name="ask")
    box.submit(chat.respond, inputs, outputs)
    clear.click(
        lambda: ([], "", "", [], gr.update(visible=False), gr.update(visible=False)),
        None,
        [history, sources, box, answers, markdown, bib],
    )
    copy.click(lambda a: gr.update(value=chat.copy_answer(a), visible=True), answers, markdown)
    copy_bib.click(lambda a: gr.update(value=papers.cited_bibtex(a), visible=True), answers, bib)
    history.like(_on_like, None, [disliked, feedback_row])
    send_feedback.click(chat.record_feedback, [history, answers, disliked, comment], feedback_status)
    return filters


def _papers_tab(filters: gr.Dropdown) -> gr.Dataframe:
    with gr.Row():
        with gr.Column(scale=3):
            search = gr.Textbox(label="Search id, label, title, authors or text", elem_id="paper-search")
            table = gr.Dataframe(
                headers=papers.HEADERS,
                interactive=False,
                wrap=True,
                # Fixed shares keep every column in view (unwrapped titles pushed authors off-screen);
                # the abstract column is already a 140-character preview (ui/papers.py).
                column_widths=["20%", "14%", "30%", "18%", "18%"],
                elem_id="papers-table",
            )
        with gr.Column(scale=2):
            paper_id = gr.Textbox(label="Paper id")
            paper = gr.HTML(elem_id="paper-view")
            upload = gr.File(label="Add a corpus file (.txt or .jsonl)", file_types=[".txt", ".jsonl"])
            ingest_btn = gr.Button("Ingest file")
            ingest_status = gr.Markdown()
    search.change(papers.papers_table, search, table)
    table.select(_selected_paper, table, paper_id)
    paper_id.change(papers.paper_view, paper_id, paper)

    def do_upload(path: str | None, progress: gr.Progress = gr.Progress()) -> tuple[str, Any, Any]:  # noqa: B008
        msg = papers.upload(path, progress)
        return msg, papers.papers_table(""), gr.update(choices=chat.filter_choices())

    ingest_btn.click(do_upload, upload, [ingest_status, table, filters], api_name="upload")

    with gr.Accordion("Check claims", open=False):
        claims_text = gr.Textbox(label="Sentences, each citing a paper as [paper_id]", lines=4, elem_id="claims-text")
        claims_btn = gr.Button("Check claims")
        claims_out = gr.HTML(elem_id="claims-result")
    claims_btn.click(claims.check_claims_html, claims_text, claims_out, api_name="check_claims")
    return table


def _evaluate_tab(backends: list[str]) -> None:
    with gr.Row():
        eval_set = gr.Dropdown(evaluate.eval_sets(), value="eval/test.jsonl", label="Eval set")
        eval_backend = gr.Dropdown(backends, value="extractive", label="Backend")
        limit = gr.Number(0, label="Only the first N questions (0 = all)", precision=0)
        run = gr.Button("Run evaluation", variant="primary")
    report = gr.Markdown()
    with gr.Row():
        plot1 = gr.Image(label="Metrics by question type", interactive=False)
        plot2 = gr.Image(label="Latency", interactive=False)
    failures_only = gr.Checkbox(label="Only failed questions")
    results = gr.Dataframe(headers=["id", "type", "result", "question", "answer"], wrap=True, interactive=False)
    all_rows = gr.State([])

    def do_eval(s: str, b: str, n: float, progress: gr.Progress = gr.Progress()) -> Any:  # noqa: B008
        table_md, plots, rows = evaluate.run_eval(s, b, int(n or 0), progress)
        return table_md, plots[0], plots[1], rows, rows

    run.click(do_eval, [eval_set, eval_backend, limit], [report, plot1, plot2, results, all_rows])
    failures_only.change(evaluate.only_failures, [all_rows, failures_only], results)


demo = build_demo()


def launch(host: str = "127.0.0.1", port: int = 7860, *, allow_remote: bool = False) -> int:
    """Serve the app on `host`: loopback by default; another address only with `allow_remote`,
    with a warning on stderr unless RAG_UI_AUTH=user:password is set. Never a public share link."""
    from ui.access import parse_ui_auth, serve_policy

    auth = parse_ui_auth(os.environ.get("RAG_UI_AUTH"))
    warning = serve_policy(host, allow_remote=allow_remote, auth=auth)  # raises when refused
    if warning:
        print(warning, file=sys.stderr, flush=True)
    # The page binds first; the index opens (built on first use) and the model and snapshot
    # load in the background, so a question that arrives meanwhile waits and the chat says so.
    demo.queue(default_concurrency_limit=4).launch(
        server_name=host,
        server_port=port,
        share=False,  # a gradio.live tunnel would publish the app: never
        auth=auth,
        css=CSS,
        head=CITE_JS,
        prevent_thread_lock=True,
    )
    start_warm_up()
    demo.block_thread()
    return 0
