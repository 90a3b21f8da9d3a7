"""Mutation testing of theory/: does some check fail when an encoding changes?

    python scripts/mutate.py [--mutants 40] [--seed 0] [--paper KEY ...] [--ref HEAD] [--out F] [--rerun F]

Samples mutants of the papers' theory packages (one change each: a numeric constant changed,
``+`` and ``-`` swapped, ``*`` and ``/`` swapped, a unary minus dropped, an exponent changed),
writes each into a fresh copy of the repository at commit ``--ref`` (``git archive``: what is
committed, with its paper-scale records, not a half-edited work tree), and runs that paper's checks
there (``pytest tests/<key> -x``, then ``pytest verify/<key> verify/shared --paper <key> -x``).
The unmutated copy runs first for every sampled paper; a paper whose checks fail unmutated stops
the script (every mutant would count as killed).  A mutant is killed when the run fails.  A
survivor whose change leaves every registered encoding of the paper identical (compared by
``sympy.srepr``) is reported as possibly equivalent; the rest are the survivors to look at.
Prints each mutant's outcome, the kill rate over the non-equivalent mutants, and the survivors
with their file, line and change.  Time: one paper run per mutant (10 s to 2 min on 2 cores).
Whether a survivor is equivalent (a change no behaviour can show) is for a person to judge; the
script only says whether it changed a registered encoding.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    path: str          # relative to the repository root
    line: int
    col: int
    kind: str          # "constant", "operator", "negation", "exponent"
    before: str
    after: str

    def describe(self) -> str:
        return f"{self.path}:{self.line}:{self.col} {self.kind}: {self.before} -> {self.after}"


def _docstring_nodes(tree) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            if node.body and isinstance(node.body[0], ast.Expr) and \
                    isinstance(node.body[0].value, ast.Constant):
                out.add(id(node.body[0].value))
    return out


def sites(path: Path) -> list[Mutant]:
    """Every mutation site of one module (numbers in code, arithmetic operators, unary minus)."""
    rel = str(path.relative_to(ROOT))
    tree = ast.parse(path.read_text())
    skip = _docstring_nodes(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in skip and \
                isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            new = node.value + 1 if isinstance(node.value, int) else node.value * 2 or 1.0
            out.append(Mutant(rel, node.lineno, node.col_offset, "constant", repr(node.value),
                              repr(new)))
        elif isinstance(node, ast.BinOp) and type(node.op) in SWAPS:
            out.append(Mutant(rel, node.lineno, node.col_offset, "operator", type(node.op).__name__,
                              SWAPS[type(node.op)].__name__))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            out.append(Mutant(rel, node.lineno, node.col_offset, "exponent", "x ** e",
                              "x ** (e + 1)"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            out.append(Mutant(rel, node.lineno, node.col_offset, "negation", "-x", "x"))
    return out


class _Apply(ast.NodeTransformer):
    def __init__(self, mutant: Mutant):
        self.m = mutant

    def _here(self, node) -> bool:
        return (getattr(node, "lineno", None), getattr(node, "col_offset", None)) == \
            (self.m.line, self.m.col)

    def visit_Constant(self, node):
        if self.m.kind == "constant" and self._here(node):
            return ast.copy_location(ast.Constant(ast.literal_eval(self.m.after)), node)
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self._here(node):
            if self.m.kind == "operator" and type(node.op).__name__ == self.m.before:
                node.op = SWAPS[type(node.op)]()
            elif self.m.kind == "exponent" and isinstance(node.op, ast.Pow):
                node.right = ast.BinOp(node.right, ast.Add(), ast.Constant(1))
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if self.m.kind == "negation" and self._here(node) and isinstance(node.op, ast.USub):
            return node.operand
        return node


def apply(mutant: Mutant, repo: Path) -> None:
    path = repo / mutant.path
    tree = _Apply(mutant).visit(ast.parse(path.read_text()))
    path.write_text(ast.unparse(ast.fix_missing_locations(tree)))


ENCODINGS = """
import json, sys, sympy as sp
from theory.registry import load_all
out = {}
for c in load_all():
    if c.paper != sys.argv[1]:
        continue
    for side in ("printed", "corrected"):
        form = object.__getattribute__(c, side)
        parts = dict(form.items()) if hasattr(form, "items") else {"": form}
        for k, v in parts.items():
            named = object.__getattribute__(v, "_named") if type(v).__name__ == "Forms" else {"": v}
            for j, w in named.items():
                if isinstance(w, (sp.Basic, sp.MatrixBase)):
                    out[f"{c.id}.{side}.{k}.{j}"] = sp.srepr(w)
print(json.dumps(out))
"""


def encodings(repo: Path, paper: str) -> dict | None:
    done = subprocess.run([sys.executable, "-c", ENCODINGS, paper], cwd=repo,
                          env={**os.environ, "PYTHONPATH": str(repo)}, capture_output=True,
                          text=True, timeout=600)
    return json.loads(done.stdout) if done.returncode == 0 else None


def copy_repo(into: Path, ref: str) -> Path:
    """The committed tree at ``ref`` (paper-scale records included) in ``into/repo``."""
    repo = into / "repo"
    repo.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True,
                             check=False)
    if archive.returncode != 0:
        raise SystemExit(f"--ref {ref}: git archive failed: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(repo)], input=archive.stdout, check=True)
    return repo


def run_checks(repo: Path, paper: str) -> tuple[bool, list[str]]:
    """(killed, failing tests and last line) of the paper's checks on the mutated copy: its
    rejection tests first (quick; run without ``--paper``, which keeps only claim-tied tests),
    then its verify checks, verify/shared included (checks of claims several papers share)."""
    rejection = [p for p in (f"tests/{paper}",) if (repo / p).exists()]
    checks = [p for p in (f"verify/{paper}", "verify/shared") if (repo / p).exists()]
    runs = ([rejection] if rejection else []) + ([checks + [
        "--paper", paper, "--no-pdf", f"--reports-dir={repo / 'reports'}"]] if checks else [])
    lines = []
    for targets in runs:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *targets, "-x", "-q", "-p", "no:cacheprovider",
             "-p", "no:xdist"],
            cwd=repo, env={**os.environ, "PYTHONPATH": str(repo)}, capture_output=True, text=True,
            timeout=1800)
        lines = (done.stdout + done.stderr).strip().splitlines()
        if done.returncode != 0:
            return True, [l for l in lines if l.startswith(("FAILED", "ERROR"))][:3] + lines[-1:]
    return False, lines[-1:]


def paper_of(path: str) -> str:
    return Path(path).parts[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--paper", action="append", default=[])
    parser.add_argument("--ref", default="HEAD", help="the commit whose theory/ is mutated")
    parser.add_argument("--out", type=Path, default=None, help="write the outcomes as JSON here")
    parser.add_argument("--rerun", type=Path, default=None,
                        help="an earlier --out file: run its survivors again (after closing gaps)")
    args = parser.parse_args(argv)
    if args.mutants < 1:
        parser.error(f"--mutants {args.mutants}: sample at least one mutant")
    papers = sorted(p.parent.name for p in (ROOT / "theory").glob("*/paper.json"))
    unknown = [p for p in args.paper if p not in papers]
    if unknown:
        parser.error(f"--paper {unknown}: not one of {papers}")
    chosen = args.paper or papers
    candidates = [m for paper in chosen for path in sorted((ROOT / "theory" / paper).glob("*.py"))
                  for m in sites(path)]
    if not candidates:
        parser.error("no mutation sites found")
    if args.rerun:
        try:
            earlier = {o["mutant"] for o in json.loads(args.rerun.read_text())["outcomes"]
                       if o["outcome"] != "killed"}
        except (OSError, ValueError, KeyError, TypeError) as err:
            parser.error(f"--rerun {args.rerun}: not an outcomes file of this script ({err})")
        # two sites can print alike (one operator at the same column): every site a survivor's
        # description names runs again
        sample = [m for m in candidates if m.describe() in earlier]
        if missing := earlier - {m.describe() for m in sample}:
            parser.error(f"--rerun {args.rerun}: {len(missing)} survivors no longer name a "
                         "mutation site (theory/ changed since)")
    else:
        sample = random.Random(args.seed).sample(candidates, min(args.mutants, len(candidates)))
    origin = f"the survivors of {args.rerun}" if args.rerun else f"seed {args.seed}"
    print(f"{len(sample)} mutants of {len(candidates)} sites in theory/ ({', '.join(chosen)}), "
          f"{origin}", flush=True)
    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        clean = copy_repo(Path(tmp), args.ref)
        sampled = sorted({paper_of(m.path) for m in sample})
        for paper in sampled:
            failed, tail = run_checks(clean, paper)
            if failed:
                raise SystemExit(f"the unmutated checks of {paper} fail at {args.ref} ({tail}): "
                                 f"fix them before counting kills")
        print(f"unmutated checks pass: {', '.join(sampled)}", flush=True)
        original = {p: encodings(clean, p) for p in sampled}
        for k, mutant in enumerate(sample, 1):
            repo = clean.parent / f"m{k}"
            shutil.copytree(clean, repo)
            apply(mutant, repo)
            paper = paper_of(mutant.path)
            killed, tail = run_checks(repo, paper)
            same = not killed and encodings(repo, paper) == original[paper]
            outcome = "killed" if killed else "survived, encodings unchanged" if same else \
                "SURVIVED"
            outcomes.append(dict(mutant=mutant.describe(), outcome=outcome, tail=tail))
            print(f"[{k}/{len(sample)}] {outcome:11s} {mutant.describe()}", flush=True)
            shutil.rmtree(repo)
    killed = sum(o["outcome"] == "killed" for o in outcomes)
    survivors = [o for o in outcomes if o["outcome"] != "killed"]
    equivalent = sum(o["outcome"] == "survived, encodings unchanged" for o in outcomes)
    judged = len(outcomes) - equivalent
    print(f"\nkilled {killed} of {len(outcomes)} mutants ({killed / len(outcomes):.0%}); "
          f"{killed} of the {judged} that change an encoding "
          f"({killed / judged if judged else 1:.0%}); "
          f"{len(survivors)} survived (judge each: equivalent, or a gap in the checks):")
    for o in survivors:
        print(f"  {o['outcome']}: {o['mutant']}")
    if args.out:
        args.out.write_text(json.dumps({"killed": killed, "mutants": len(outcomes),
                                        "outcomes": outcomes}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
