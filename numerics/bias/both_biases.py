"""Two-layer ensemble with biases in both layers (BL App C.3 / Fig 9, BA App B / Fig 5).

``y = W2 [c; act(W~1 [c; x])]``: the output bias is a readout of a constant hidden unit of strength
``c``, as the hidden bias is a weight on a constant input (BL-Def-Aug), so both bias weights are
learned at rate ``c^2 * lr``.  Column 0 of ``W1`` is ``b1`` and column 0 of ``W2`` is ``b2``.
It exposes the interface :func:`numerics.train.train` uses (``params``, ``K``, ``W1``, call).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from numerics.models import TwoLayerEnsemble
from numerics.validation import seed_list


@dataclass
class BothBiasEnsemble:
    hidden_layer: TwoLayerEnsemble     # W1 and the activation; its W2 is the readout without b2
    b2: torch.Tensor                   # (K, n_out, 1)

    @classmethod
    def init(cls, seeds, n_in, n_hid, n_out, *, activation="relu", bias_strength=1.0,
             init_std=1e-2, dtype=torch.float64, device=None):
        """Same draws as :meth:`TwoLayerEnsemble.init` for W1 and W2 (so the hidden-bias-only
        networks of the same seeds share them), plus ``b2 ~ N(0, init_std^2)`` from seed + 10^6."""
        seeds = seed_list(seeds)
        net = TwoLayerEnsemble.init(seeds, n_in, n_hid, n_out, activation=activation,
                                    bias_strength=bias_strength, init_std=init_std, dtype=dtype,
                                    device=device)
        b2 = torch.stack([torch.randn(n_out, 1, dtype=dtype,
                                      generator=torch.Generator().manual_seed(int(s) + 10 ** 6))
                          for s in seeds]).to(net.W1.device) * init_std
        return cls(net, b2)

    @property
    def K(self):
        return self.hidden_layer.K

    @property
    def W1(self):
        return self.hidden_layer.W1

    @property
    def W2(self):
        return self.hidden_layer.W2

    @property
    def params(self):
        return [self.hidden_layer.W1, self.hidden_layer.W2, self.b2]

    def hidden(self, X):
        return self.hidden_layer.hidden(X)

    def __call__(self, X):
        c = self.hidden_layer.bias_strength[:, None, None]
        return self.hidden_layer(X) + c * self.b2
