"""The package's modules import each other in one direction: no module or subpackage
(reports, loader, judge) reaches, through its imports, back to itself (history,
significance and the reports once did)."""

from __future__ import annotations

import ast

from support.warehouse import REPO

PACKAGE = REPO / "scripts" / "agent_scoring"


def unit(name: str) -> str:
    """A module of a subpackage stands for its subpackage."""
    return ".".join(name.split(".")[:2])


def imports() -> dict[str, set[str]]:
    """Module or subpackage -> the others it imports at its top level."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = set()
        for node in tree.body:  # top level only: a function's late import breaks no cycle
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                base = node.module
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        found[name] = {t for t in targets if t.startswith("agent_scoring")}
    graph: dict[str, set[str]] = {}
    for name, targets in found.items():
        graph.setdefault(unit(name), set()).update(
            unit(t) for t in targets if t in found and unit(t) != unit(name))
    return graph


def test_no_module_imports_itself_through_others():
    graph = imports()
    cycles = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            name, path = stack.pop()
            for nxt in graph[name]:
                if nxt == start:
                    cycles.append(" -> ".join([*path, nxt]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert cycles == []
