"""One layout for every paper (issue 27; docs/DESIGN.md, "Layout"): each paper the same rooms
with the same names, and verify/ computes no dynamics of its own -- training, GD steps and the
integration of flows live in numerics/, which verify calls.

The debts below are the places that still break the rule, each with what moving it costs: a
file hashed by paper-scale records demotes them when it changes, so such a move lands with the
next re-make of those records.  The lists may only shrink (a test fails on a debt that is paid)."""
import ast
from pathlib import Path

import pytest

from theory.papers import PAPERS

ROOT = Path(__file__).resolve().parents[1]
#: every paper's rooms: its encodings and settings tables, its runners and configurations, its
#: evidence (a module, or a package by section when large), its figures and its validity maps
ROOMS = ("theory/{p}", "theory/{p}/settings.py", "numerics/{p}", "verify/{p}/evidence",
         "verify/{p}/figures.py", "verify/{p}/validity.py")
#: rooms a paper does not have because it shares another paper's, and why
ABSENT = {
    ("bias_workshop", "theory/{p}/settings.py"): "its runs are the long paper's: their settings "
                                                 "are the long paper's tables",
}
#: calls that integrate a flow or take a gradient, and the GD loop's module: numerics' work
COMPUTE = {"solve_ivp", "odeint", "quad", "quad_vec", "backward"}
GD_LOOP = "numerics.train"
#: verify modules that still compute, with what moving them costs (none left: BL App A's GD and
#: autograd checks moved to numerics.bias.instances, the mode law's quadrature reference to
#: numerics.closed_forms); a new entry needs a reason
DEBTS: dict[str, set[str]] = {}


def _room(paper: str, room: str) -> Path | None:
    path = ROOT / room.format(p=paper)
    if room.endswith("/evidence"):
        return next((p for p in (path.with_suffix(".py"), path / "__init__.py") if p.exists()), None)
    return path if path.exists() else None


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("room", ROOMS)
def test_every_paper_has_the_same_rooms(paper, room):
    if (paper, room) in ABSENT:
        assert _room(paper, room) is None, f"{paper} has {room} now: drop its ABSENT entry"
        return
    assert _room(paper, room) is not None, \
        f"{paper} lacks {room.format(p=paper)} (docs/adding-a-paper.md lays out every paper's rooms)"


def _computing_calls(path: Path) -> set[str]:
    """The names of the COMPUTE calls in a module (``autograd.grad`` as 'grad'), and GD_LOOP
    where it imports the GD loop (``numerics.train``: ``descend``, ``gd_step``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == GD_LOOP or \
                isinstance(node, ast.Import) and any(a.name == GD_LOOP for a in node.names):
            found.add(GD_LOOP)
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in COMPUTE:
                found.add(name)
            if name == "grad" and isinstance(f, ast.Attribute) and \
                    getattr(f.value, "attr", getattr(f.value, "id", "")) == "autograd":
                found.add("grad")
    return found


def test_verify_integrates_trains_and_steps_nothing_itself():
    found = {str(p.relative_to(ROOT)): calls for p in sorted((ROOT / "verify").rglob("*.py"))
             if (calls := _computing_calls(p))}
    new = {k: sorted(v - DEBTS.get(k, set())) for k, v in found.items() if v - DEBTS.get(k, set())}
    assert not new, f"verify/ computes dynamics (move it to numerics/ and call it): {new}"
    paid = {k: sorted(v - found.get(k, set())) for k, v in DEBTS.items() if v - found.get(k, set())}
    assert not paid, f"paid debts: drop them from DEBTS: {paid}"


def test_the_rule_catches_a_flow_integrated_in_verify(tmp_path):
    module = tmp_path / "evidence.py"
    module.write_text("from scipy.integrate import solve_ivp\nimport torch\n"
                      "from numerics.train import descend\n"
                      "def f(loss, w):\n    torch.autograd.grad(loss, [w])\n"
                      "    return solve_ivp(lambda t, y: -y, (0, 1), [1.0])\n")
    assert _computing_calls(module) == {"solve_ivp", "grad", GD_LOOP}


#: numerics modules whose weight-updating loops are not descend's, and why: the optimisers
#: descend does not run (it is full-batch GD)
OWN_LOOPS = {
    # minibatch SGD with momentum, cosine decay and a per-member stop (the released RHM main.py)
    "numerics/rich_quick/rhm.py": "minibatch SGD with momentum",
    # minibatch SGD / momentum of the Fig. 6 image and transformer nets
    "numerics/rich_quick/image_nets.py": "minibatch SGD with momentum",
    # AdamW of the Fig. 6(d) grokking transformer
    "numerics/rich_quick/grokking.py": "AdamW",
}


def _descends(node) -> bool:
    """An update by subtraction: ``W -= ...``, ``W.sub_(...)`` or ``w = w - ...``."""
    if isinstance(node, ast.AugAssign):
        return isinstance(node.op, ast.Sub)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr == "sub_"
    return (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.Sub) and isinstance(node.value.left, ast.Name)
            and node.value.left.id == node.targets[0].id)


def _weight_loops(source: str) -> list[int]:
    """Lines of the step loops (``for ... in range(...)``, ``while``) that update something by
    subtraction (:func:`_descends`): a hand-written descent."""
    lines = []
    for loop in ast.walk(ast.parse(source)):
        if not (isinstance(loop, ast.While) or isinstance(loop, ast.For) and isinstance(
                loop.iter, ast.Call) and ast.unparse(loop.iter.func) in ("range", "tqdm")):
            continue
        if any(_descends(n) for stmt in loop.body for n in ast.walk(stmt)):
            lines.append(loop.lineno)
    return lines


def test_every_gradient_descent_in_numerics_goes_through_descend():
    """One GD loop (docs/DESIGN.md): numerics.train.descend steps every full-batch GD of
    numerics/; the step a paper needs is the function it is handed."""
    found = {str(p.relative_to(ROOT)): lines for p in sorted((ROOT / "numerics").rglob("*.py"))
             if str(p.relative_to(ROOT)) != "numerics/train.py"
             and (lines := _weight_loops(p.read_text()))}
    own = {k: v for k, v in found.items() if k not in OWN_LOOPS}
    assert not own, f"GD loops of their own (hand the step to numerics.train.descend): {own}"
    gone = sorted(set(OWN_LOOPS) - set(found))
    assert not gone, f"no loop of its own left: drop them from OWN_LOOPS: {gone}"


def test_the_loop_rule_catches_a_hand_written_descent():
    assert _weight_loops("def f(W, g, lr, steps):\n    for _ in range(steps):\n"
                         "        W -= lr * g(W)\n") == [2]
    assert _weight_loops("def f(w, s, lr, steps):\n    while steps:\n"
                         "        w = w - lr * (w - s)\n        steps -= 1\n") == [2]
    assert _weight_loops("def f(w, xs):\n    for _ in range(3):\n"
                         "        w = xs - w\n") == []           # not an update of w by a step
    assert _weight_loops("def f(Ws, gs, lr):\n    for W, g in zip(Ws, gs):\n"
                         "        W -= lr * g\n") == []          # one step's update of each layer
