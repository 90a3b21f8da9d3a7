"""The layers hold (docs/DESIGN.md, "Layout"): theory imports nothing from numerics or verify;
numerics imports nothing from verify (it runs and returns results, it decides and records
nothing); a verify test reads like its claim, fixture -> evidence -> record -> figure: at most
25 lines, no loop, no simulation (no call into numerics; handing a numerics function to an
evidence function as the formula under test is fine) and no plotting in its body."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LONGEST_TEST_BODY = 25
PLOTTING = {"plt", "matplotlib", "subplots", "figure"}


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported(tree) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


@pytest.mark.parametrize("package, forbidden", [("theory", ("numerics", "verify")),
                                                ("numerics", ("verify",))])
def test_a_lower_layer_imports_nothing_from_the_layers_above(package, forbidden):
    leaks = {str(p.relative_to(ROOT)): sorted(m for m in imported(ast.parse(p.read_text()))
                                              if m.split(".")[0] in forbidden)
             for p in modules(package)}
    leaks = {k: v for k, v in leaks.items() if v}
    assert not leaks, f"{package}/ imports from {forbidden}: {leaks}"


#: numerics modules that hold data, not simulations: a test may pick its configuration in its body
DATA = ("numerics.ran", "configs")


def numerics_names(tree) -> set[str]:
    """Names a module binds from numerics' simulations (``from numerics... import x``,
    ``import numerics...``), not from its configuration records."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "numerics":
            if node.module == DATA[0] or node.module.endswith("." + DATA[1]):
                continue
            out |= {a.asname or a.name for a in node.names if a.name != DATA[1]}
        elif isinstance(node, ast.Import):
            out |= {a.asname or a.name.split(".")[0] for a in node.names
                    if a.name.split(".")[0] == "numerics"}
    return out


def verify_test_functions():
    for path in sorted((ROOT / "verify").rglob("test_*.py")):
        tree = ast.parse(path.read_text())
        sim = numerics_names(tree)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                yield path, node, sim


def _root(func) -> str:
    """The name a call starts from (``so`` in ``so.qq_exact(...)``)."""
    while isinstance(func, ast.Attribute):
        func = func.value
    return func.id if isinstance(func, ast.Name) else ""


def body_problems(node: ast.FunctionDef, sim: set[str]) -> list[str]:
    body = node.body[1:] if (node.body and isinstance(node.body[0], ast.Expr)
                             and isinstance(node.body[0].value, ast.Constant)) else node.body
    problems = []
    lines = (body[-1].end_lineno - body[0].lineno + 1) if body else 0
    if lines > LONGEST_TEST_BODY:
        problems.append(f"{lines} lines")
    for sub in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(sub, (ast.For, ast.While, ast.AsyncFor)):
            problems.append(f"a loop (line {sub.lineno})")
        elif isinstance(sub, ast.Name) and sub.id in PLOTTING:
            problems.append(f"plotting with {sub.id} (line {sub.lineno})")
        elif isinstance(sub, ast.Call) and _root(sub.func) in sim:
            problems.append(f"calls numerics' {_root(sub.func)} (line {sub.lineno})")
    return problems


def test_every_verify_test_reads_like_its_claim():
    bad = {f"{path.relative_to(ROOT)}::{node.name}": problems
           for path, node, sim in verify_test_functions() if (problems := body_problems(node, sim))}
    assert not bad, (f"{len(bad)} verify tests run, loop or plot in their body (move it to a "
                     f"fixture, evidence.py or figures.py): " + "; ".join(
                         f"{k}: {', '.join(sorted(set(v)))}" for k, v in sorted(bad.items())))


#: the modules that may rename files into place: the one atomic writer, and the reports'
#: generations, which swap whole folders and the link to the current one
RENAMERS = {"numerics/atomic.py", "verify/report/generations.py"}


def test_one_atomic_writer():
    """Every file a run keeps is written by ``numerics.atomic`` (issue 27, one of each): no other
    module makes temporary files and renames them over their targets."""
    found = []
    for path in sorted(p for root in ("numerics", "verify", "theory") for p in (ROOT / root).rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text())):
            call = node.func if isinstance(node, ast.Call) else None
            if (isinstance(call, ast.Attribute) and rel not in RENAMERS
                    and (call.attr == "rename" or (call.attr == "replace" and _root(call) == "os"))):
                found.append(f"{rel}:{node.lineno}")
    assert not found, f"files renamed into place outside numerics.atomic: {found}"
