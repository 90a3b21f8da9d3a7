"""The benchmark's pieces on tiny sizes: the batched and looped runs agree exactly, both sides of
the closed-form comparison agree, and the Fig. 1(b) timing path (a fraction of the grid, its Dask
branch, the matmul ceiling, the paper-scale data record, which verify writes and the bench reads)
runs and reports its numbers (speed itself is
measured by ``python -m numerics.bench``)."""
import json

import numpy as np
import pytest
import torch

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
    # a chunk is a tau row, as python -m numerics.full_scale cuts the grid
    assert result["chunks_run"] == 2 * 2 and result["of_chunks"] == 3 * 2
    assert result["loop_seconds"] > 0 and result["flop_per_s_gd_step"] > 0
    assert result["extrapolated_full_s"] > result["loop_seconds"]


def test_fig1b_entry_reports_the_fraction_and_the_matmul_ceiling(tmp_path):
    entry = bench.grq_fig1b(steps=3, seeds=1, dask=False, records=tmp_path, base=TINY)
    assert entry["paper_scale"].startswith("not measured")
    for threads in ("threads_1", "threads_2"):
        assert entry[threads]["matmul_ceiling"]["flop_per_s"] > 0
        assert entry[threads]["gd_step_over_matmul"] > 0
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


def test_gemm_shapes_are_read_at_the_dispatcher_and_replayed_as_plain_matmuls():
    A, B = torch.ones(3, 4, 5, dtype=torch.float64), torch.ones(5, 2, dtype=torch.float64)
    shapes = bench.gemm_shapes(lambda: (A @ B, torch.einsum("kij,jl->kil", A, B)))
    assert len(shapes) == 2 and bench.gemm_flop(shapes) == 2 * (2 * 12 * 5 * 2)
    assert [tuple(p.shape) for p in bench.plain_matmuls(shapes)()] == [(12, 2), (1, 12, 2)]
    # a step taken inside its gradient product (GatedNet.step's W.baddbmm_) is a GEMM too
    W, d, a = torch.zeros(1, 4, 3), torch.ones(1, 4, 2), torch.ones(1, 3, 2)
    inplace = bench.gemm_shapes(lambda: W.baddbmm_(d, a.transpose(1, 2), alpha=-0.1))
    assert [(tuple(x), tuple(y)) for x, y, _ in inplace] == [((1, 4, 2), (1, 2, 3))]


def test_a_trainer_step_is_set_beside_its_matmul_ceiling_and_a_plain_loop():
    step, plain, members = bench._two_layer(range(4), 3, 8, 2, 5, paper="bias", lr=0.01)
    entry = bench.step_against_matmul(step, calls=2, threads=(1,), repeat=1)
    assert entry["gemms_per_step"] == 5 and entry["threads_1"]["step_over_matmul"] > 0
    assert entry["profile_1_thread"] and members == 4
    plain()
    summary = bench.ceilings({"device_peak": {"float64_threads_1_flop_per_s": 1e9},
                              "trainers": {"toy": entry}})
    assert "of it" in summary["toy"] and "GFLOP/s" in summary["device peak (measured GEMM)"]


def test_faithful_costs_read_the_paper_scale_wall_times(tmp_path):
    (tmp_path / "a_full.json").write_text(json.dumps({"experiment": "t[full]", "wall_seconds": 12.0}))
    (tmp_path / "b_full.json").write_text(json.dumps({"experiment": "u[full]", "wall_seconds": None}))
    assert bench.faithful_costs(tmp_path) == {"t[full]": {"wall_s": 12.0, "device": None,
                                                          "date": None, "under_an_hour": True}}


def test_device_info_marks_the_gpu_ratio_not_measured_without_cuda(monkeypatch):
    monkeypatch.setattr(bench.torch.cuda, "is_available", lambda: False)
    assert bench.device_info(5)["gpu_over_cpu"].startswith("not measured")


def test_full_scale_cli_times_a_fraction_of_the_grid(tmp_path, monkeypatch):
    monkeypatch.setattr(ts, "FIG1B_FULL", TINY)
    result = full_scale.main(["--fraction", "0.0001", "--out", str(tmp_path / "fs.json")])
    entry = result["experiments"]["grq-fig1b"]
    assert entry["steps_run"] == 10 and entry["extrapolated_full_s"] > 0
    assert json.loads((tmp_path / "fs.json").read_text())["experiments"]["grq-fig1b"]["fraction"] == 1e-4


def test_trainer_backend_turns_onednn_off_and_restores_the_settings(monkeypatch):
    """The trainers' backend (numerics.models.trainer_backend): CLAIMS_TORCH_THREADS threads, oneDNN
    off inside, both restored after; a bad thread count is a named error."""
    from numerics.models import intra_op_threads, trainer_backend
    before = (torch.backends.mkldnn.enabled, torch.get_num_threads())
    monkeypatch.setenv("CLAIMS_TORCH_THREADS", "2")
    with trainer_backend(intra_op_threads()):
        assert (torch.backends.mkldnn.enabled, torch.get_num_threads()) == (False, 2)
    assert (torch.backends.mkldnn.enabled, torch.get_num_threads()) == before
    monkeypatch.setenv("CLAIMS_TORCH_THREADS", "0")
    with pytest.raises(ValueError, match=r"CLAIMS_TORCH_THREADS='0' must be a positive integer"):
        intra_op_threads()


def test_the_released_loops_are_timed_from_a_checkout_or_said_missing(tmp_path, monkeypatch):
    """numerics.released imports the authors' files as they are: here a stand-in fit_nn_gd in a
    checkout's place (the real one is timed by python -m numerics.bench --released DIR)."""
    from numerics import released
    monkeypatch.delenv(released.RELEASED_CODE, raising=False)
    missing = bench.released_against_trainers({})
    assert all(released.RELEASED_CODE in v["not measured"] for v in missing.values())
    code = tmp_path / "getrichquick" / "two-layer-relu"
    code.mkdir(parents=True)
    (code / "utils.py").write_text(
        "import numpy as np\n"
        "def fit_nn_gd(W0, a0, X, y, leak_parameter=None, lr=1e-4, n_iter=10_000):\n"
        "    W = W0.copy()\n"
        "    for _ in range(n_iter + 1):\n"
        "        W -= lr * (W @ X.T @ X)\n"
        "    return [], [], []\n")
    suite = iter([1e-3] + [1e-6, 2e-6, 4e-6])        # the warm-up, then three rounds
    out = bench.released_against_trainers(tmp_path, rounds=3,
                                          suites={"grq_fig1b_chunk": lambda steps: next(suite)})
    entry = out["grq_fig1b_chunk"]
    assert entry["rounds"] == 3 and entry["suite_trainer_s"] == 1e-6 and entry["step_s"] > 0
    # the median of the paired rounds' ratios, not a ratio of two separately taken bests
    low, high = entry["released_over_suite_range"]
    assert low < entry["released_over_suite"] < high and high / low > 1.5
    assert "not measured" in out["mhs_depth_relu"] and "not measured" in out["lazy_rich_gd"]
    line = bench._against_released(entry)
    assert line.startswith("released code") and f"{entry['released_over_suite']:.2f}x" in line
    assert "median of 3 paired rounds" in line
    with pytest.raises(ValueError, match="is not a directory"):
        released.root(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="rounds"):
        bench.released_against_trainers(tmp_path, rounds=0, suites={})
