"""The gradient-flow integrator on ODEs with known solutions, and its conservation monitor."""
import numpy as np
import pytest

from numerics.ode import ConservationError, integrate_flow


def rotation(t, p):
    return {"x": -p["y"], "y": p["x"]}


def test_named_parameters_follow_a_known_matrix_exponential():
    A = np.array([[-0.3, 1.0], [-1.0, -0.3]])
    flow = integrate_flow(lambda t, p: {"M": A @ p["M"], "c": -2.0 * p["c"]},
                          {"M": np.eye(2), "c": np.array([1.0, -3.0, 0.5])}, 5.0)
    from scipy.linalg import expm
    assert np.allclose(flow.states["M"][..., -1], expm(5.0 * A), rtol=1e-9, atol=1e-12)
    assert np.allclose(flow.at(2.0)["c"], np.array([1.0, -3.0, 0.5]) * np.exp(-4.0), rtol=1e-9)


def test_scalar_parameters_and_conserved_energy_of_a_rotation():
    flow = integrate_flow(rotation, {"x": 1.0, "y": 0.0}, 2 * np.pi,
                          conserved={"r^2": lambda p: p["x"] ** 2 + p["y"] ** 2})
    assert abs(flow.states["x"][-1] - 1.0) < 1e-9 and flow.drift["r^2"] < 1e-9


def test_a_quantity_that_is_not_conserved_raises():
    with pytest.raises(ConservationError, match="'x' drifted"):
        integrate_flow(rotation, {"x": 1.0, "y": 0.0}, 1.0, conserved={"x": lambda p: p["x"]})


def test_events_report_crossing_times():
    def hits_half(t, p):
        return p["a"] - 0.5
    flow = integrate_flow(lambda t, p: {"a": -p["a"]}, {"a": 1.0}, 3.0, events=[hits_half])
    assert abs(flow.events[0][0] - np.log(2)) < 1e-9


@pytest.mark.parametrize("kwargs, message", [
    (dict(params={"x": np.nan, "y": 0.0}, t_end=1.0), r"params\['x'\] contains non-finite"),
    (dict(params={"x": 1.0, "y": 0.0}, t_end=-1.0), "t_end must be positive"),
    (dict(params={}, t_end=1.0), "params is empty"),
    (dict(params={"x": 1.0, "y": 0.0}, t_end=1.0, t_eval=[0, 2.0]), "t_eval must lie"),
])
def test_bad_input_names_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        integrate_flow(rotation, **kwargs)
