"""Issue 27: no module under verify/ falls below a radon maintainability index of 20 (radon's
own grade B/C border is 20/10; the lowest module before the bar was verify/measurement.py at
16.75, split since).  A module that crosses it is split by what it holds, not trimmed."""
from pathlib import Path

from radon.metrics import mi_visit

ROOT = Path(__file__).resolve().parents[1]
BAR = 20.0


def maintainability(path: Path) -> float:
    """radon's maintainability index of one module (comments counted as multi-line strings,
    as ``radon mi`` does by default)."""
    return mi_visit(path.read_text(encoding="utf-8"), multi=True)


def test_every_verify_module_is_above_the_bar():
    low = {str(p.relative_to(ROOT)): round(mi, 2) for p in sorted((ROOT / "verify").rglob("*.py"))
           if (mi := maintainability(p)) < BAR}
    assert not low, f"radon maintainability index below {BAR} (split these modules): {low}"


def test_the_bar_catches_a_tangled_module(tmp_path):
    branches = "\n".join(f"    if x == {i}:\n        y = x * {i} + z ** {i} - w / {i + 1}" for i in range(400))
    module = tmp_path / "tangled.py"
    module.write_text(f"def f(x, z, w):\n    y = 0\n{branches}\n    return y\n")
    assert maintainability(module) < BAR
    assert maintainability(ROOT / "verify" / "setup.py") >= BAR
