"""The benchmark's pieces on tiny sizes: the batched and looped runs agree exactly, both sides of
the closed-form comparison agree, and the Fig. 1(b) timing path (a fraction of the grid, its Dask
branch, the matmul ceiling, the paper-scale data record, which verify writes and the bench reads)
runs and reports its numbers (speed itself is
measured by ``python -m numerics.bench``)."""
import json

import numpy as np
import pytest

from numerics import bench, full_scale
from numerics.rich_quick import single_neuron_teacher_student as ts
from verify.report.paper_scale import write_data

TINY = dict(ts.FIG1B_FULL, taus=(0.1, 1.0), deltas=(-1.0, 1.0), seeds=(0, 1, 2), d=6, n=40,
            n_test=50, h=8)


def test_batched_and_looped_training_give_identical_weights():
    result = bench.batched_vs_loop(steps=5)
    assert result["identical_to_1e-12"] and result["K"] == 64


def test_closed_forms_agree_with_the_integrated_flows():
    result = bench.closed_form_vs_ode(points=200)
    assert result["mode_law"]["max_rel_diff"] < 1e-8
    assert result["lambda_balanced_qq"]["max_rel_diff"] < 1e-8


def test_fig1b_fraction_times_the_loop_and_the_records_apart():
    result = bench.fig1b_fraction(steps=3, seeds=2, base=TINY)
    assert result["chunks_run"] == 2 and result["of_chunks"] == 3
    assert result["loop_seconds"] > 0 and result["flop_per_s_gd_step"] > 0
    assert result["extrapolated_full_s"] > result["loop_seconds"]


def test_fig1b_entry_reports_the_fraction_and_the_matmul_ceiling(tmp_path):
    entry = bench.grq_fig1b(steps=3, seeds=1, dask=False, records=tmp_path, base=TINY)
    assert entry["paper_scale"].startswith("not measured")
    assert entry["matmul_ceiling"]["flop_per_s"] > 0 and entry["gd_step_over_matmul"] > 0
    json.dumps(entry)


def test_the_dask_fraction_matches_the_in_process_one(monkeypatch):
    """The Dask branch of the bench, on a stand-in scheduler that is this process (the real
    two-worker LocalCluster is tests/test_sweep.py's)."""
    from numerics import sweep
    monkeypatch.setattr(sweep, "DaskExecutor", lambda address: sweep.InlineExecutor())
    result = bench.fig1b_through_dask("tcp://stand-in:8786", steps=3, cells=3, base=TINY)
    assert result["identical"] and result["cells_per_chunk"] == 3 and result["chunks"] == 2


def test_a_paper_scale_record_is_read_back_with_its_share_of_the_float64_peak(tmp_path):
    write_data("grq-fig1b", claim="GRQ-Fig1", verdict="holds", measurements=[], flop=6.7e15,
               wall_s=200.0, started="2026-01-01T00:00:00+00:00", figure={"S": np.zeros((2, 2))},
               out_dir=tmp_path, device="NVIDIA H100 80GB HBM3")
    entry = bench.grq_fig1b(steps=3, seeds=1, dask=False, records=tmp_path, base=TINY)
    assert entry["paper_scale"]["fraction_of_float64_peak"] == pytest.approx(0.5)
    assert entry["paper_scale"]["verdict"] == "holds"


def test_device_info_marks_the_gpu_ratio_not_measured_without_cuda(monkeypatch):
    monkeypatch.setattr(bench.torch.cuda, "is_available", lambda: False)
    assert bench.device_info(5)["gpu_over_cpu"].startswith("not measured")


def test_full_scale_cli_times_a_fraction_of_the_grid(tmp_path, monkeypatch):
    monkeypatch.setattr(ts, "FIG1B_FULL", TINY)
    result = full_scale.main(["--fraction", "0.0001", "--out", str(tmp_path / "fs.json")])
    entry = result["experiments"]["grq-fig1b"]
    assert entry["steps_run"] == 10 and entry["extrapolated_full_s"] > 0
    assert json.loads((tmp_path / "fs.json").read_text())["experiments"]["grq-fig1b"]["fraction"] == 1e-4
