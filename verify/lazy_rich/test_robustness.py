"""Robustness of the converged network to noise (Sec 5 l.100-104, App C.3; Fig. 4E): LR-Robust-Input,
LR-Robust-Param.  Converged nets are built exactly (Alg. 1 from Syx: W2W1 = Syx, Thm C.3 Grams); the
expected losses are checked against Monte Carlo means by z-scores."""
import pytest

from theory.registry import REGISTRY
from verify.lazy_rich import evidence, figures


@pytest.mark.claim("LR-Robust-Input")
def test_input_noise_loss_is_independent_of_lambda(claim, noise):
    run = noise["input"]
    claim.holds(*evidence.input_noise(REGISTRY["LR-Robust-Input"].printed, run),
                note=f"(5,3,3), P = 12, sigma = {run.sigma}, {run.losses.shape[1]} draws per lambda")


@pytest.mark.claim("LR-Robust-Param")
def test_weight_noise_loss_is_minimal_at_lambda_zero(claim, noise):
    runs = noise["weight"]
    claim.holds(*evidence.weight_noise(REGISTRY["LR-Robust-Param"].printed, runs),
                note=f"sigma = {runs[0].sigma}, {runs[0].losses.shape[1]} draws per lambda")


@pytest.mark.claim("LR-Robust-Input", "LR-Robust-Param")
def test_noise_loss_against_lambda_figure(claim, report_figure, noise_ci):
    """Fig. 4E: expected loss under input and weight noise against lambda (theory lines, Monte Carlo markers)."""
    input_formula, printed = REGISTRY["LR-Robust-Input"].printed, REGISTRY["LR-Robust-Param"].printed
    claim.holds(*evidence.noise_against_lambda(input_formula, printed, noise_ci))
    report_figure(*figures.noise_against_lambda(
        evidence.noise_level(input_formula, noise_ci["input"]), noise_ci["input"], noise_ci["weight"],
        lambda run, lams: evidence.weight_noise_curve(printed, run.task, lams, run.sigma)))
