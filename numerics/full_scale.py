"""Paper-scale timings and figure data (``reports/paper_scale/data/<experiment>.json``).

The ``full`` verify tests (``pytest verify --scale=full``) run the faithful configurations; the
plugin records each one's verdicts and measurements in ``reports/paper_scale/<test>.json``.  The
heaviest of them add, through :func:`write_record`, what that record lacks: the FLOP count and the
achieved FLOP/s, the device, wall time, commit and date, and the figure data needed to draw it.
``reports/paper_scale/`` is tracked; the rest of ``reports/`` is generated.

``python -m numerics.full_scale [--fraction F] [--dask ADDRESS]`` times a fraction of the
Fig. 1(b) released grid (GRQ-Fig1) through the same sweep as its full test, and extrapolates:
``seconds / fraction`` (every GD step costs the same; the records are a small share).  Writes
``reports/full_scale.json`` (generated).  Time units: GD steps.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from numerics.machine import device_name, git_commit

RECORDS = Path("reports/paper_scale")


def machine() -> dict:
    return {"device": device_name(), "torch_threads": torch.get_num_threads(),
            "torch": torch.__version__}


def commit() -> str:
    sha, dirty = git_commit()
    return sha + ("+changes" if dirty else "")


def timed(fn) -> dict:
    """Run ``fn()``; its result under ``result``, with wall seconds, start date and machine."""
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    t0 = time.perf_counter()
    result = fn()
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return {"result": result, "wall_s": time.perf_counter() - t0, "started": started, **machine()}


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "as_dict"):
        return value.as_dict()
    return value


def write_record(name: str, *, claim: str, verdict: str, checks, flop: float, wall_s: float,
                 figure: dict, out_dir=RECORDS, **extra) -> Path:
    """Write ``<out_dir>/data/<name>.json``: the paper-scale verdict and measurements of ``claim``
    with ``flop / wall_s`` as the achieved FLOP/s and the figure data (a sub-folder, so the
    plugin's per-test records in ``out_dir`` stay the only verdict records there)."""
    record = {"experiment": name, "claim": claim, "verdict": verdict, "scale": "full",
              "measurements": [m.as_dict() for m in checks], "flop": flop, "wall_s": wall_s,
              "flop_per_s": flop / wall_s, "commit": commit(), "figure": _plain(figure),
              **_plain(extra)}
    path = Path(out_dir) / "data" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1))
    return path


def grq_fig1b(fraction: float, address: str | None = None) -> dict:
    """A ``fraction`` of the Fig. 1(b) released grid's steps, all 4,624 runs, through the sweep
    (on the Dask scheduler at ``address`` when given)."""
    from numerics.rich_quick import single_neuron_teacher_student as ts
    cfg = ts.FIG1B_FULL
    record = timed(lambda: ts.fig1b_sweep(cfg, fraction, address=address, progress=True))
    steps = record.pop("result")[0]
    runs = len(cfg["seeds"]) * len(cfg["taus"]) * len(cfg["deltas"])
    flop = runs * int(steps[-1]) * ts.fig1b_flop_per_step(cfg)
    return {"experiment": "GRQ-Fig1 (b), released grid", "cost": ts.fig1b_cost(cfg),
            "steps_run": int(steps[-1]), "full_steps": cfg["steps"],
            "fraction": steps[-1] / cfg["steps"], "flop_run": flop,
            "flop_per_s": flop / record["wall_s"],
            "extrapolated_full_s": record["wall_s"] * cfg["steps"] / steps[-1],
            "method": "wall_s * full_steps / steps_run", **record}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fraction", type=float, default=1e-3,
                        help="share of the GD steps to run, in (0, 1] (default 1e-3)")
    parser.add_argument("--dask", default=None, metavar="ADDRESS",
                        help="run the chunks on this Dask scheduler")
    parser.add_argument("--out", default="reports/full_scale.json")
    args = parser.parse_args(argv)
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction={args.fraction} must lie in (0, 1]")
    result = {"experiments": {"grq-fig1b": grq_fig1b(args.fraction, address=args.dask)}}
    if args.dask:
        result["experiments"]["grq-fig1b"]["executor"] = f"dask {args.dask}"
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(_plain(result), indent=1)
    out.write_text(text)
    print(text)
    return result


if __name__ == "__main__":
    main()
