"""The project code a paper-scale verdict rests on: the modules its test runs, found by reading
their imports (docs/DESIGN.md, "The record").

A paper-scale record keeps a hash of each of these files, so a later run can tell whether the
code that decided it -- the trainer, the configurations and faithfulness settings, the evidence,
the formulas -- changed since.  The set is read from the source, not from ``sys.modules``: a run
of the whole suite has imported every paper's modules by the time its first test runs, and an
edit to one paper must not make another paper's records stale.  Every ``import`` statement
counts, those inside functions too, so a module imported lazily is still in the set; a module
imported by a computed name (``importlib``) is not, which is why the runners a record's setups
name are added by name.
"""
from __future__ import annotations

import ast
import hashlib
from pathlib import Path


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else "missing"


def module_file(name: str, root: Path) -> Path | None:
    """The file of module ``name`` in the project at ``root`` (None outside it)."""
    base = Path(root).joinpath(*name.split("."))
    return next((f for f in (base.with_suffix(".py"), base / "__init__.py") if f.is_file()), None)


def _names(path: Path, root: Path) -> set[str]:
    """The module names ``path`` imports, with ``from a import b`` also naming ``a.b`` (a
    submodule, where it is one)."""
    package = path.parent.relative_to(root).parts
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            names.add(".".join(module))
            names |= {".".join([*module, alias.name]) for alias in node.names}
    return {n for n in names if n}


def _files(names: set[str], root: Path) -> set[Path]:
    """The project files of ``names`` and of every package on the way (its ``__init__`` runs)."""
    out = set()
    for name in names:
        parts = name.split(".")
        out |= {f for k in range(1, len(parts) + 1)
                if (f := module_file(".".join(parts[:k]), root)) is not None}
    return out


def conftests(test: Path, root: Path) -> list[Path]:
    """The ``conftest.py`` files pytest runs for ``test``: its folder's and every one above, up
    to ``root``."""
    folders = [p for p in Path(test).resolve().parents if p == root or root in p.parents]
    return [f / "conftest.py" for f in folders if (f / "conftest.py").is_file()]


def closure(starts: list[Path], root: Path) -> list[str]:
    """Every project file ``starts`` import, transitively, with ``starts``, relative to
    ``root`` (files outside it -- the libraries -- left out)."""
    root = Path(root).resolve()
    seen: set[Path] = set()
    todo = [Path(s).resolve() for s in starts]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file() or root not in path.parents:
            continue
        seen.add(path)
        todo += [f.resolve() for f in _files(_names(path, root), root)]
    return sorted(str(p.relative_to(root)) for p in seen)


def deciding_files(test: Path, runners: list[str], root: Path) -> list[str]:
    """The project files whose code decides what ``test`` records: the test module, the
    conftests pytest runs for it, the modules of the ``runners`` (dotted names) its setups name,
    and everything they import."""
    root = Path(root).resolve()
    starts = [Path(test), *conftests(test, root)]
    for runner in runners:
        parts = runner.split(".")
        starts += next(([f] for k in range(len(parts), 0, -1)
                        if (f := module_file(".".join(parts[:k]), root)) is not None), [])
    return closure(starts, root)


def hashes(files: list[str], root: Path) -> dict[str, str]:
    return {f: file_hash(Path(root) / f) for f in files}


def changed(recorded: dict[str, str], root: Path) -> list[str]:
    """The files of ``recorded`` (file -> hash) whose text differs now."""
    return sorted(f for f, h in recorded.items() if file_hash(Path(root) / f) != h)
