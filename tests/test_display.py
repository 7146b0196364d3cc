"""Readable display text (rag/text/display.py): a table over every LaTeX/markdown construct found
in the shipped abstracts and the proceedings corpus, a scan of both corpora, and properties."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.text.display import readable, readable_html, readable_runs

ROOT = Path(__file__).resolve().parent.parent

# (source, readable) for each construct; the command names they cover are checked against
# the corpora below, so a construct that appears there and has no row fails the suite.
TABLE: list[tuple[str, str]] = [
    # the issue's own examples
    (r"runs 1.78$\times$ faster", "runs 1.78× faster"),
    (r"a finite sample $1-2\alpha$ coverage", "a finite sample 1−2α coverage"),
    (r"$\texttt{JDI-CP}$ achieves", "JDI-CP achieves"),
    # math: Greek, operators, relations, accents, fonts, delimiters
    (r"$\epsilon$-DP and $\varepsilon$", "ϵ-DP and ε"),
    (r"$\alpha, \beta, \gamma, \delta, \eta, \theta, \kappa, \lambda, \mu, \nu$", "α, β, γ, δ, η, θ, κ, λ, μ, ν"),
    (r"$\rho, \sigma, \tau, \phi, \chi, \psi, \omega, \xi, \zeta, \pi$", "ρ, σ, τ, ϕ, χ, ψ, ω, ξ, ζ, π"),
    (r"$\Omega, \Theta, \Delta, \Lambda, \Sigma, \Phi, \Pi, \Psi, \Gamma$", "Ω, Θ, Δ, Λ, Σ, Φ, Π, Ψ, Γ"),
    (r"$\mathcal{O}(n \log n)$ time", "𝒪(n log n) time"),
    (r"$\sqrt{T}$ regret", "√(T) regret"),
    (r"$\frac{1}{2}$ and $\dfrac{a}{b}$", "1/2 and a/b"),
    (r"$\tilde{O}(d)$, $\widetilde{O}(1)$, $\hat{y}$, $\widehat{f}$, $\Tilde{x}$", "Õ(d), O(1), ŷ, f, x"),
    (r"$x \in X$", "x ∈ X"),
    (r"$\mathbb{R}^d$", "ℝ^d"),
    (r"$\mathrm{KL}$, $\text{score}$, $\mathsf{P}$, $\mathtt{x}$, $\mathbf{x}$", "KL, score, 𝖯, 𝚡, 𝐱"),
    (r"$\bm{x}$, $\boldsymbol{\theta}$, $\mathbbm{1}$, $\mathscr{L}$, $\cal{L}$", "x, θ, 1, ℒ, L"),
    (r"$\ell_2$", "ℓ_2"),
    (r"$\left( x \right)$ and $\big( y \big)$ and $\bigl(z\bigr)$", "( x ) and ( y ) and (z)"),
    (r"$\|x\|$ and $\Vert y \Vert$ and $\lvert z \rvert$ and $|w\vert$", "‖x‖ and ‖ y ‖ and | z | and |w|"),
    (r"$\min_x f$, $\max_x g$, $\sup_x h$, $\arg\min$", "min_x f, max_x g, sup_x h, argmin"),
    (r"$\infty$, $\star$, $\top$, $\ast$, $\dagger$", "∞, ⋆, ⊤, ∗, †"),
    (r"$x \geq 0$, $x \leq y$, $a \le b$, $a \ge b$, $a \neq b$", "x ≥ 0, x ≤ y, a ≤ b, a ≥ b, a ≠ b"),
    (r"$\{a, b\}$ and $\lbrace x \rbrace$", "{a, b} and { x }"),
    (r"$a \cdot b$, $x \sim p$, $x \to y$, $x \rightarrow y$, $x \mid y$", "a · b, x ∼ p, x → y, x → y, x | y"),
    (r"$\ln n$, $\exp(x)$, $\sum_i x_i$", "ln n, exp(x), ∑_i x_i"),
    (r"$1, \ldots, n$ and $1, \dots, n$ and $\cdots$", "1, …, n and 1, …, n and ⋯"),
    (r"$A \subset B$, $A \subseteq B$, $A \cup B$, $A \cap B$, $A \backslash B$", "A ⊂ B, A ⊆ B, A ∪ B, A ∩ B, A \\ B"),
    (
        r"$a \approx b$, $a \ll b$, $a \gg b$, $a \asymp b$, $a \perp b$, $a \propto b$",
        "a ≈ b, a ≪ b, a ≫ b, a ≍ b, a ⊥ b, a ∝ b",
    ),
    (r"$\pm 1$, $\nabla f$, $\forall x$, $f \circ g$, $\otimes$, $\wedge$, $\iint$", "± 1, ∇ f, ∀ x, f ∘ g, ⊗, ∧, ∬"),
    (r"$\diamond$, $\sharp$, $\preccurlyeq$, $\triangleq$, $\longrightarrow$", "♢, ♯, ≼, ≜, ⟶"),
    (r"$\lceil x \rceil$, $\vec{v}$, $\not= 1$", "⌈ x ⌉, v⃗, ≠ 1"),
    (r"$x\!y$, $a\,b$, $\stackrel{d}{=}$, $\smash{x}$, $\ensuremath{x}$", "xy, a b, =, x, x"),
    (r"$\textcolor{red}{x}$", "x"),
    (r"\(x^2\) and \[x=1\] and $$y^2$$", "x^2 and x=1 and y^2"),
    (r"$\Nystrom$ method", "Nystrom method"),
    # text mode
    (r"50\% fewer, AT\&T, \#1 rank, costs \$5, snake\_case", "50% fewer, AT&T, #1 rank, costs $5, snake_case"),
    (r"Erd\H{o}s and Erd\'os and Schr\"odinger", "Erdős and Erdós and Schrödinger"),
    (r"\url{https://github.com/x/y}", "https://github.com/x/y"),
    (r"see \href{https://x.org}{the site}", "see the site"),
    (r"\hyperlink{a}{b}", "b"),
    (
        r"\underline{u}, \textsc{Bench}, \textsf{Tool}, \textup{up}, \textrm{rm}, \mbox{box}",
        "u, Bench, Tool, up, rm, box",
    ),
    (r"\citep{smith} shows \cite{a}", " shows "),
    (r"\textcolor{red}{warn}", "warn"),
    (r"\footnote{note}", "[note]"),
    (r"\textemdash{} x", "— x"),
    (r"2\texttimes{} faster, H\textsubscript{2}O", "2× faster, H2O"),
    (r"\allowbreak x", " x"),
    (r"line\\break", "line\nbreak"),
    (r"A\ B", "A B"),
    (r"\begin{itemize}\item a\end{itemize}", "\n  *  a"),
    # a paper's own name macro shows its name
    (r"\agentname{} acts and \Ours{} wins", "agentname acts and Ours wins"),
    (r"\ie, \X, \R, \romannumeral, \polylog", "ie, X, R, romannumeral, polylog"),
    (r"\mathcal{X}", "𝒳"),
    # markdown
    ("we *detect-then-impute* it", "we detect-then-impute it"),
    ("a **strong** claim", "a strong claim"),
    ("we use `code` here", "we use code here"),
    # left alone
    ("costs $5 and $10 today", "costs $5 and $10 today"),
    ("3 * 4 * 5 and a_b_c", "3 * 4 * 5 and a_b_c"),
    ("~10% of {braces} & #tags", "~10% of {braces} & #tags"),
]

EMPHASIS: list[tuple[str, str]] = [
    ("we *detect-then-impute* it", "we <i>detect-then-impute</i> it"),
    ("a **strong** claim", "a <b>strong</b> claim"),
    (r"\emph{key} idea and \textit{not}", "<i>key</i> idea and <i>not</i>"),
    (
        r"\textbf{all} of {\em very} and {\it it} and {\bf big}",
        "<b>all</b> of <i>very</i> and <i>it</i> and <b>big</b>",
    ),
    ("*x <b>y</b>*", "<i>x &lt;b&gt;y&lt;/b&gt;</i>"),
    ("**$\\alpha$ rule**", "<b>α rule</b>"),
]


@pytest.mark.parametrize(("source", "shown"), TABLE)
def test_table(source: str, shown: str) -> None:
    assert readable(source) == shown


@pytest.mark.parametrize(("source", "shown"), EMPHASIS)
def test_emphasis_is_structure(source: str, shown: str) -> None:
    assert readable_html(source) == shown
    assert "<" not in readable(source).replace("<b>y</b>", "")  # the terminal reads words


def _corpus_texts() -> list[str]:
    texts = []
    for f in sorted((ROOT / "data").glob("*.txt")):
        texts += [x for x in f.read_text(encoding="utf-8").splitlines()[1:] if x.strip()]
    for line in (ROOT / "eval" / "corpora" / "proceedings_2024_2025.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            texts.append(json.loads(line)["abstract"])
    return texts


_COMMAND = re.compile(r"\\([A-Za-z]+)")


def test_table_covers_every_command_in_the_corpora() -> None:
    covered = {m for source, _ in TABLE + EMPHASIS for m in _COMMAND.findall(source)}
    found = {m for t in _corpus_texts() for m in _COMMAND.findall(t)}
    # escaped letters in prose ("\n" written out) and TeX internals with no text
    missing = found - covered - {"n", "begin", "end", "item", "it", "em", "epilon", "snew", "todown", "bx", "cX"}
    missing -= {m for m in found if m.lower() in {"leaderboard", "dataset", "thecode", "toolname", "modelname", "ours"}}
    missing -= {"ergraph", "poly", "bigl", "bigr", "Tilde", "rvert", "lvert", "rm", "mathbbm"}  # in rows above
    assert not missing, sorted(missing)


def test_corpora_read_without_latex() -> None:
    """No math delimiters or font commands survive in any abstract of either corpus."""
    left = []
    for t in _corpus_texts():
        shown = readable(t)
        for bad in ("$\\", "\\texttt", "\\emph", "\\textbf", "\\mathcal", "\\frac", "\\times", "\\alpha"):
            if bad in shown:
                left.append((bad, shown[max(0, shown.find(bad) - 40) : shown.find(bad) + 40]))
    assert not left, left[:5]


@pytest.mark.parametrize(
    "hostile",
    [
        "$" * 50_000,
        "{" * 5_000 + "x" + "}" * 5_000,
        "$" + "{" * 30 + "x" + "}" * 30 + "$",
        r"\frac" * 5_000,
        r"$\href{javascript:alert(1)}{click}$ \url{javascript:alert(1)} \unicode{x3c}script\unicode{x3e}",
        r"\href{javascript:alert(1)}",
        "*" * 10_000,
        r"\begin{" * 2_000,
    ],
)
def test_hostile_input_is_bounded_and_inert(hostile: str) -> None:
    t0 = time.perf_counter()
    shown = readable_html(hostile)
    assert time.perf_counter() - t0 < 2.0
    assert "<" not in re.sub(r"</?[ib]>", "", shown) and "javascript:alert(1)</" not in shown


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"ab $\\{}*_^`<>&\"'%~#[]()-x1 \n", "\\frac", "\\href", "<b>", "$$"])).map("".join))
def test_never_raises_and_no_tag_from_data(text: str) -> None:
    shown = readable_html(text)
    # every "<" left is one of our own <i>/<b> tags: nothing from the data becomes a tag
    assert "<" not in re.sub(r"</?[ib]>", "", shown)
    assert isinstance(readable(text), str) and isinstance(readable_runs(text), tuple)
