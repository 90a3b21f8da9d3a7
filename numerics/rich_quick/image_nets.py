"""LeNet-5, a small ResNet-like CNN and the DAWNBench ResNet for GRQ Fig. 6(a)/(b) (App. D.3),
trained as an ensemble (leading axis K over seeds and alpha values) in one batched program.

Members are an explicit leading axis K: convolutions run as grouped convolutions (groups=K)
and dense layers as batched matmuls, so one program trains the ensemble.

The alpha manipulation of App. D.3: after He initialisation the first layer is divided by alpha
and (LeNet) the readout multiplied by alpha, so the function at initialisation is unchanged for
ReLU networks (positive homogeneity); alpha > 1 is upstream.  Training is minibatch SGD on the
cross-entropy (the paper's optimiser for Fig. 6(a) is not stated); the DAWNBench ResNet trains
with its own recipe (:func:`train_dawn`).  Time is counted in epochs.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from numerics.rich_quick.checks import alpha_of, size
from numerics.validation import InvalidArgument, finite_array, number


def _he(shape, fan_in, g):
    # float32: these are the large training runs of the suite (DESIGN.md allows float32 there)
    return torch.randn(*shape, generator=g, dtype=torch.float32) * np.sqrt(2.0 / fan_in)


def lenet5_init(seed: int, alpha: float, in_ch: int = 1, n_cls: int = 10):
    """LeNet-5 for 28x28 inputs (LeCun et al. 1998, ReLU and max pooling as in D.3): conv 6@5x5
    (padding 2) -> pool -> conv 16@5x5 -> pool -> fc 120 -> fc 84 -> fc n_cls, He init, no biases
    (so the alpha rescaling keeps the function exactly); first layer / alpha, last * alpha."""
    seed, alpha = size(seed, "seed", 0), alpha_of(alpha)
    in_ch, n_cls = size(in_ch, "in_ch"), size(n_cls, "n_cls")
    g = torch.Generator().manual_seed(seed)
    return {"c1": _he((6, in_ch, 5, 5), in_ch * 25, g) / alpha, "c2": _he((16, 6, 5, 5), 150, g),
            "f1": _he((120, 400), 400, g), "f2": _he((84, 120), 120, g),
            "f3": _he((n_cls, 84), 84, g) * alpha}


def lenet5_forward(p, x, return_hidden: bool = False):
    """Ensemble LeNet-5: params with leading axis K, x (B, C, 28, 28) shared -> (K, B, cls); with
    ``return_hidden`` also every hidden ReLU activation (K, B, units)."""
    K = p["c1"].shape[0]
    _images(x, p["c1"].shape[2], 28)
    h1 = F.relu(_gconv(x.repeat(1, K, 1, 1), p["c1"], 2))
    h2 = F.relu(_gconv(F.max_pool2d(h1, 2), p["c2"], 0))
    h3 = F.relu(torch.bmm(_split(F.max_pool2d(h2, 2), K), p["f1"].transpose(1, 2)))
    h4 = F.relu(torch.bmm(h3, p["f2"].transpose(1, 2)))
    out = torch.bmm(h4, p["f3"].transpose(1, 2))
    if return_hidden:
        return out, torch.cat([_split(h1, K), _split(h2, K), h3, h4], 2)
    return out


def _images(x, channels: int, side: int | None = None):
    """A batch x (B, channels, side, side) (any H, W where ``side`` is None)."""
    if x.ndim != 4 or x.shape[1] != channels or (side is not None and tuple(x.shape[2:]) != (side, side)):
        shape = f"(B, {channels}, {side}, {side})" if side is not None else f"(B, {channels}, H, W)"
        raise InvalidArgument(f"x must be {shape}, got {tuple(x.shape)}")


def _gconv(h, w, padding):
    """Ensemble convolution: h (B, K*Cin, H, W), w (K, Cout, Cin, k, k) -> (B, K*Cout, H', W')."""
    K = w.shape[0]
    return F.conv2d(h, w.flatten(0, 1), padding=padding, groups=K)


def _split(h, K):
    """(B, K*C, H, W) -> (K, B, C*H*W)."""
    B = h.shape[0]
    return h.reshape(B, K, -1).transpose(0, 1)


def resnet_init(seed: int, alpha: float, in_ch: int = 1, side: int = 8, n_cls: int = 10,
                width: int = 16, first_kernel: int = 5):
    """ResNet-like: conv width@k x k (the 'filters' of Fig. 6(b)) -> residual block of two 3x3
    convs -> 2x2 max-pool -> fc; only the first conv is divided by alpha (D.3)."""
    seed, alpha = size(seed, "seed", 0), alpha_of(alpha)
    in_ch, side, n_cls, width = (size(v, n) for v, n in ((in_ch, "in_ch"), (side, "side"),
                                                            (n_cls, "n_cls"), (width, "width")))
    k = size(first_kernel, "first_kernel")
    g = torch.Generator().manual_seed(seed)
    return {"c0": _he((width, in_ch, k, k), in_ch * k * k, g) / alpha,
            "r1": _he((width, width, 3, 3), width * 9, g),
            "r2": _he((width, width, 3, 3), width * 9, g) * 0.5,
            "fc": _he((n_cls, width * (side // 2) ** 2), width * (side // 2) ** 2, g)}


def resnet_forward(p, x):
    """Ensemble forward of :func:`resnet_init` members: x (B, C, H, W) shared -> (K, B, cls)."""
    K = p["c0"].shape[0]
    k = p["c0"].shape[-1]
    _images(x, p["c0"].shape[2])
    h = F.relu(_gconv(x.repeat(1, K, 1, 1), p["c0"], k // 2))
    h = F.relu(h + _gconv(F.relu(_gconv(h, p["r1"], 1)), p["r2"], 1))
    return torch.bmm(_split(F.max_pool2d(h, 2), K), p["fc"].transpose(1, 2))


def stack(params_list):
    """Members' parameter dicts stacked on a leading axis K."""
    if not params_list:
        raise InvalidArgument("params_list is empty: an ensemble needs at least one member")
    return {k: torch.stack([p[k] for p in params_list]) for k in params_list[0]}


def train_ensemble(forward, params, X, y, *, lr: float, epochs: int, batch: int, seed: int,
                   checkpoints=(), on_checkpoint=None):
    """Minibatch SGD on the mean cross-entropy for every member at once (the leading axis of
    ``params``; members share the minibatch order).  ``on_checkpoint(epoch, params)`` runs
    at the listed epochs (0 = before training)."""
    lr = number(lr, "lr", positive=True)
    epochs, batch, seed = size(epochs, "epochs", 0), size(batch, "batch"), size(seed, "seed", 0)
    _samples(X, y)
    params = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    first = next(iter(params.values()))
    X = torch.as_tensor(X, dtype=first.dtype, device=first.device)
    y = torch.as_tensor(y, device=first.device)
    g = torch.Generator().manual_seed(seed)
    if on_checkpoint and 0 in checkpoints:
        on_checkpoint(0, params)
    for epoch in range(1, epochs + 1):
        order = torch.randperm(len(X), generator=g).to(first.device)
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


def _samples(X, y):
    if len(X) != len(y) or len(X) == 0:
        raise InvalidArgument(f"X has {len(X)} samples but y has {len(y)}: one label per image, at "
                              "least one image")


def accuracy(forward, params, X, y) -> np.ndarray:
    """Per member: the share of the images ``X`` classified as ``y``."""
    _samples(X, y)
    with torch.no_grad():
        first = next(iter(params.values()))
        logits = forward(params, torch.as_tensor(X, dtype=first.dtype, device=first.device))
    return (logits.argmax(-1) == torch.as_tensor(y, device=first.device)).double().mean(1).cpu().numpy()


def scalar_ntk(forward, params, X) -> torch.Tensor:
    """Per-member NTK (K, n, n) of the summed logits (the paper does not say which scalar NTK it
    uses for 10 outputs; the sum is the suite's choice).  One backward pass per input: members are
    independent, so the gradient of the member-summed output holds every member's row at once
    (measured 6x faster than ``torch.func.jacrev`` through the grouped convolutions)."""
    if len(X) == 0:
        raise InvalidArgument("X is empty: the NTK needs at least one image")
    names = list(params)
    p = [params[k].detach().clone().requires_grad_(True) for k in names]
    X = torch.as_tensor(X, dtype=p[0].dtype, device=p[0].device)
    rows = []
    for i in range(len(X)):
        grads = torch.autograd.grad(forward(dict(zip(names, p)), X[i:i + 1]).sum(), p)
        rows.append(torch.cat([g.flatten(1) for g in grads], 1))
    J = torch.stack(rows, 1)                                   # (K, n, P)
    return J @ J.transpose(1, 2)


def smoothness(filters: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Eq. (128): ``|| (w/||w||) * kernel ||^2`` per filter (valid 2-D correlation); filters of
    shape (..., k, k), at least as large as ``kernel``."""
    from scipy.signal import correlate2d
    # checked, not converted: float32 filters are measured in float32, as trained
    filters, kernel = np.asarray(filters), finite_array(kernel, "kernel", ndim=2)
    if not np.all(np.isfinite(filters)):
        raise InvalidArgument("filters contains non-finite values (nan or inf)")
    if filters.ndim < 2 or any(f < k for f, k in zip(filters.shape[-2:], kernel.shape)):
        raise InvalidArgument(f"kernel {kernel.shape} is larger than the filters {filters.shape[-2:]}")
    flat = filters.reshape(-1, *filters.shape[-2:])
    if not np.all(np.linalg.norm(flat, axis=(1, 2))):
        raise InvalidArgument("filters has a zero filter: its normalised smoothness is undefined")
    out = [np.sum(correlate2d(w / np.linalg.norm(w), kernel, mode="valid") ** 2) for w in flat]
    return np.asarray(out).reshape(filters.shape[:-2])


# ------------------------------------------------------------------ DAWNBench ResNet (Fig. 6(b))
DAWN_CHANNELS = (("prep", 3, 64), ("layer1", 64, 128), ("layer2", 128, 256), ("layer3", 256, 512))


def dawn_init(seed: int, alpha: float, prep_kernel: int = 3, n_cls: int = 10):
    """The DAWNBench ResNet of D.3 (davidcpage/cifar10-fast ``dawn.py``): conv-BN-ReLU blocks
    prep 64, layer1 128 (+ residual), layer2 256, layer3 512 (+ residual), 2x2 max pools, 4x4
    max pool, linear 512 -> 10 times 0.125, no biases; every conv filter divided by ``alpha``
    (D.3).  ``prep_kernel`` is the first layer's filter size (D.3 writes 15x15, the code 3x3)."""
    seed, alpha = size(seed, "seed", 0), alpha_of(alpha)
    prep_kernel, n_cls = size(prep_kernel, "prep_kernel"), size(n_cls, "n_cls")
    g = torch.Generator().manual_seed(seed)
    p = {}
    for name, c_in, c_out in DAWN_CHANNELS:
        k = prep_kernel if name == "prep" else 3
        p[name] = _he((c_out, c_in, k, k), c_in * k * k, g) / alpha
    for name, c in (("layer1", 128), ("layer3", 512)):
        for r in ("res1", "res2"):
            p[f"{name}.{r}"] = _he((c, c, 3, 3), c * 9, g) / alpha
    p["linear"] = _he((n_cls, 512), 512, g)
    for key in [k for k in p if k != "linear"]:
        p[f"{key}.bn_w"] = torch.ones(p[key].shape[0])
        p[f"{key}.bn_b"] = torch.zeros(p[key].shape[0])
    return p


def _conv_bn(p, key, h):
    """conv -> batch norm (batch statistics, per member and channel) -> ReLU."""
    w = p[key]
    h = _gconv(h, w, w.shape[-1] // 2)
    h = F.batch_norm(h, None, None, p[f"{key}.bn_w"].flatten(), p[f"{key}.bn_b"].flatten(),
                     training=True)
    return F.relu(h)


def dawn_forward(p, x):
    """Ensemble forward of :func:`dawn_init` members: x (B, 3, 32, 32) shared -> (K, B, cls)."""
    K = p["prep"].shape[0]
    _images(x, 3, 32)
    h = _conv_bn(p, "prep", x.repeat(1, K, 1, 1))
    for name in ("layer1", "layer2", "layer3"):
        h = F.max_pool2d(_conv_bn(p, name, h), 2)
        if f"{name}.res1" in p:
            h = h + _conv_bn(p, f"{name}.res2", _conv_bn(p, f"{name}.res1", h))
    h = _split(F.max_pool2d(h, 4), K)                       # (K, B, 512)
    return torch.bmm(h, p["linear"].transpose(1, 2)) * 0.125


def _augment(x, g):
    """cifar10-fast's augmentation: random 32x32 crop of the 4-padded image, horizontal flip,
    one 8x8 cutout, each drawn per image."""
    B, _, H, W = x.shape
    pad = F.pad(x, (4, 4, 4, 4), mode="reflect")
    oy, ox = (torch.randint(0, 9, (B,), generator=g).to(x.device) for _ in range(2))
    rows = (oy[:, None] + torch.arange(H, device=x.device))[:, :, None]
    cols = (ox[:, None] + torch.arange(W, device=x.device))[:, None, :]
    x = pad[torch.arange(B, device=x.device)[:, None, None], :, rows, cols].permute(0, 3, 1, 2)
    flip = (torch.rand(B, generator=g) < 0.5).to(x.device)
    x = torch.where(flip[:, None, None, None], x.flip(-1), x)
    cy, cx = (torch.randint(0, H - 7, (B,), generator=g).to(x.device) for _ in range(2))
    ys, xs = torch.arange(H, device=x.device), torch.arange(W, device=x.device)
    hole = (((ys[None] >= cy[:, None]) & (ys[None] < cy[:, None] + 8))[:, :, None]
            & ((xs[None] >= cx[:, None]) & (xs[None] < cx[:, None] + 8))[:, None, :])
    return x * (~hole)[:, None].to(x.dtype)


def train_dawn(params, X, y, *, epochs: int, batch: int, peak_lr: float, weight_decay: float,
               seed: int):
    """cifar10-fast's recipe for every member at once: Nesterov SGD (momentum 0.9) on the
    cross-entropy, learning rate piecewise linear 0 -> ``peak_lr`` (epoch 5) -> 0 (last epoch),
    the augmentation of :func:`_augment`, full batches only (drop_last)."""
    peak_lr = number(peak_lr, "peak_lr", positive=True)
    weight_decay = number(weight_decay, "weight_decay", nonnegative=True)
    epochs, batch, seed = size(epochs, "epochs"), size(batch, "batch"), size(seed, "seed", 0)
    _samples(X, y)
    if batch > len(X):
        raise InvalidArgument(f"batch={batch} exceeds the {len(X)} training images: no full batch")
    params = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    first = next(iter(params.values()))
    X = torch.as_tensor(X, dtype=first.dtype, device=first.device)
    y = torch.as_tensor(y, device=first.device)
    g = torch.Generator().manual_seed(seed)
    bufs = {k: torch.zeros_like(v) for k, v in params.items()}
    per_epoch = len(X) // batch
    total = epochs * per_epoch
    for step in range(total):
        if step % per_epoch == 0:
            order = torch.randperm(len(X), generator=g).to(first.device)
        idx = order[(step % per_epoch) * batch:(step % per_epoch + 1) * batch]
        logits = dawn_forward(params, _augment(X[idx], g))
        loss = F.cross_entropy(logits.flatten(0, 1), y[idx].repeat(logits.shape[0]),
                               reduction="sum") / len(idx)
        grads = torch.autograd.grad(loss, list(params.values()))
        epoch = step / per_epoch
        lr = float(np.interp(epoch, [0, 5, epochs], [0, peak_lr, 0]))
        with torch.no_grad():
            for (k, v), gr in zip(params.items(), grads):
                gr = gr + weight_decay * v
                bufs[k].mul_(0.9).add_(gr)
                v -= lr * (gr + 0.9 * bufs[k])
    return {k: v.detach() for k, v in params.items()}


def chunked_accuracy(forward, params, X, y, chunk: int = 500) -> np.ndarray:
    """:func:`accuracy` over ``chunk`` images at a time (batch statistics per chunk)."""
    chunk = size(chunk, "chunk")
    hits = [accuracy(forward, params, X[i:i + chunk], y[i:i + chunk]) * len(y[i:i + chunk])
            for i in range(0, len(y), chunk)]
    return np.sum(hits, 0) / len(y)

