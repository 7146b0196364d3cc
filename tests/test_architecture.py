"""The package layout holds: no import cycle (function-local imports included) and every
import points down the pipeline (text -> corpus -> models -> index -> retrieval -> answer ->
engine -> evaluation/bench -> CLI/app)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Lower layers never import higher ones; the same layer may import itself (without cycles).
LAYERS = [
    ("rag", "rag.errors", "rag.types", "rag.settings"),
    ("rag.text",),
    ("rag.corpus",),
    ("rag.models",),
    ("rag.index",),
    ("rag.retrieval",),
    ("rag.answer",),
    ("rag.engine",),
    ("rag.evaluation", "rag.bench"),
    ("rag.cli", "ui"),
]


def modules() -> dict[str, Path]:
    out = {}
    for pkg in ("rag", "ui"):
        for path in (ROOT / pkg).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """Project modules imported anywhere in the file (module level, functions, TYPE_CHECKING)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}  # `from pkg import module`
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports(path, name, set(mods)) for name, path in mods.items()}


def layer(module: str) -> int:
    best = -1
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best < 0 or len(p) > 1):
                best = i
    assert best >= 0, f"{module} is in no layer: add it to LAYERS"
    return best


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_graph_sees_function_local_imports(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from rag.answer import pipeline\n    import rag.engine\n")
    assert imports(src, "x", {"rag.answer", "rag.answer.pipeline", "rag.engine"}) == {
        "rag.answer",
        "rag.answer.pipeline",
        "rag.engine",
    }
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_imports_point_down_the_pipeline() -> None:
    g = graph()
    upward = [f"{a} -> {b}" for a, deps in sorted(g.items()) for b in sorted(deps) if layer(b) > layer(a)]
    assert upward == []
