"""Small LeNet- and ResNet-like CNNs for the GRQ Fig. 6(a)/(b) reductions, trained as an
ensemble (leading axis K over seeds and alpha values) in one batched program.

Members are an explicit leading axis K: convolutions run as grouped convolutions (groups=K)
and dense layers as batched matmuls, so one program trains the ensemble.

The alpha manipulation of App. D.3: after He initialisation the first layer is divided by alpha
and (LeNet) the readout multiplied by alpha, so the function at initialisation is unchanged for
ReLU networks (positive homogeneity); alpha > 1 is upstream.  Training is minibatch SGD on the
cross-entropy (the paper's optimiser for Fig. 6(a) is not stated).
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch.func import jacrev


def _he(shape, fan_in, g):
    # float32: these are the large training runs of the suite (DESIGN.md allows float32 there)
    return torch.randn(*shape, generator=g, dtype=torch.float32) * np.sqrt(2.0 / fan_in)


def lenet_init(seed: int, alpha: float, in_ch: int = 1, side: int = 8, n_cls: int = 10):
    """LeNet-like: conv 6@3x3 -> pool -> conv 16@3x3 -> pool -> fc 32 -> fc n_cls (no biases, so
    the alpha rescaling preserves the function exactly)."""
    g = torch.Generator().manual_seed(seed)
    flat = 16 * (side // 4) ** 2
    return {"c1": _he((6, in_ch, 3, 3), in_ch * 9, g) / alpha,
            "c2": _he((16, 6, 3, 3), 54, g),
            "f1": _he((32, flat), flat, g),
            "f2": _he((n_cls, 32), 32, g) * alpha}


def _gconv(h, w, padding):
    """Ensemble convolution: h (B, K*Cin, H, W), w (K, Cout, Cin, k, k) -> (B, K*Cout, H', W')."""
    K = w.shape[0]
    return F.conv2d(h, w.flatten(0, 1), padding=padding, groups=K)


def _split(h, K):
    """(B, K*C, H, W) -> (K, B, C*H*W)."""
    B = h.shape[0]
    return h.reshape(B, K, -1).transpose(0, 1)


def lenet_forward(p, x, return_hidden: bool = False):
    """Ensemble forward: params with leading axis K, x (B, C, H, W) shared -> logits (K, B, cls)."""
    K = p["c1"].shape[0]
    xk = x.repeat(1, K, 1, 1)
    h1 = F.relu(_gconv(xk, p["c1"], 1))
    h2 = F.relu(_gconv(F.max_pool2d(h1, 2), p["c2"], 1))
    h3 = F.relu(torch.bmm(_split(F.max_pool2d(h2, 2), K), p["f1"].transpose(1, 2)))
    out = torch.bmm(h3, p["f2"].transpose(1, 2))
    if return_hidden:
        return out, torch.cat([_split(h1, K), _split(h2, K), h3], 2)
    return out


def resnet_init(seed: int, alpha: float, in_ch: int = 1, side: int = 8, n_cls: int = 10,
                width: int = 16, first_kernel: int = 5):
    """ResNet-like: conv width@k x k (the 'filters' of Fig. 6(b)) -> residual block of two 3x3
    convs -> 2x2 max-pool -> fc; only the first conv is divided by alpha (D.3)."""
    g = torch.Generator().manual_seed(seed)
    k = first_kernel
    return {"c0": _he((width, in_ch, k, k), in_ch * k * k, g) / alpha,
            "r1": _he((width, width, 3, 3), width * 9, g),
            "r2": _he((width, width, 3, 3), width * 9, g) * 0.5,
            "fc": _he((n_cls, width * (side // 2) ** 2), width * (side // 2) ** 2, g)}


def resnet_forward(p, x):
    K = p["c0"].shape[0]
    k = p["c0"].shape[-1]
    h = F.relu(_gconv(x.repeat(1, K, 1, 1), p["c0"], k // 2))
    h = F.relu(h + _gconv(F.relu(_gconv(h, p["r1"], 1)), p["r2"], 1))
    return torch.bmm(_split(F.max_pool2d(h, 2), K), p["fc"].transpose(1, 2))


def stack(params_list):
    return {k: torch.stack([p[k] for p in params_list]) for k in params_list[0]}


def train_ensemble(forward, params, X, y, *, lr: float, epochs: int, batch: int, seed: int,
                   checkpoints=(), on_checkpoint=None):
    """Minibatch SGD on the mean cross-entropy for every member at once (the leading axis of
    ``params``; members share the minibatch order).  ``on_checkpoint(epoch, params)`` runs
    at the listed epochs (0 = before training)."""
    params = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    X, y = torch.as_tensor(X, dtype=next(iter(params.values())).dtype), torch.as_tensor(y)
    g = torch.Generator().manual_seed(seed)
    if on_checkpoint and 0 in checkpoints:
        on_checkpoint(0, params)
    for epoch in range(1, epochs + 1):
        order = torch.randperm(len(X), generator=g)
        for start in range(0, len(X), batch):
            idx = order[start:start + batch]
            logits = forward(params, X[idx])                     # (K, B, classes)
            loss = F.cross_entropy(logits.flatten(0, 1), y[idx].repeat(logits.shape[0]),
                                   reduction="sum") / len(idx)
            grads = torch.autograd.grad(loss, list(params.values()))
            with torch.no_grad():
                for v, gr in zip(params.values(), grads):
                    v -= lr * gr
        if on_checkpoint and epoch in checkpoints:
            on_checkpoint(epoch, params)
    return {k: v.detach() for k, v in params.items()}


def accuracy(forward, params, X, y) -> np.ndarray:
    with torch.no_grad():
        logits = forward(params, torch.as_tensor(X, dtype=next(iter(params.values())).dtype))
    return (logits.argmax(-1) == torch.as_tensor(y)).double().mean(1).numpy()


def scalar_ntk(forward, params, X) -> torch.Tensor:
    """Per-member NTK (K, n, n) of the summed logits (the paper does not say which scalar NTK it
    uses for 10 outputs; the sum is the suite's choice).  Members are independent, so the
    Jacobian of the summed-over-members output w.r.t. the stacked parameters is block diagonal."""
    p = {k: v.detach() for k, v in params.items()}
    X = torch.as_tensor(X, dtype=next(iter(p.values())).dtype)
    J = jacrev(lambda q: forward(q, X).sum(2).sum(0))(p)     # name -> (n, K, ...)
    Jf = torch.cat([j.flatten(2) for j in J.values()], 2).transpose(0, 1)   # (K, n, P)
    return Jf @ Jf.transpose(1, 2)


def smoothness(filters: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Eq. (128): ``|| (w/||w||) * kernel ||^2`` per filter (valid 2-D correlation); filters of
    shape (..., k, k)."""
    from scipy.signal import correlate2d
    flat = filters.reshape(-1, *filters.shape[-2:])
    out = [np.sum(correlate2d(w / np.linalg.norm(w), kernel, mode="valid") ** 2) for w in flat]
    return np.asarray(out).reshape(filters.shape[:-2])
