"""Runs computed once and shared between the processes of one session.

:func:`shared` is ``functools.cache`` for a runner (a function of hashable, ``repr``-stable
arguments: configurations, names, numbers), and more where the environment variable
:data:`STORE` names a folder: the run is then computed by the first process that asks for it,
under a lock (``filelock``), and written to that folder (``numerics.atomic``); every other process
that asks waits for the lock and reads it back.  Pickling stores arrays and tensors exactly, so a
run read back is bit-identical to the run computed.

``pytest verify`` without ``-n`` sets the folder for its session and hands a second process the
runs its tests will need (``verify.ahead``); nothing else sets it, so a runner called anywhere
else is plain ``functools.cache``.  A folder is one session's: it is keyed by arguments, not by
the source of the code, and removed when the session ends.
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import os
import pickle
from pathlib import Path

from numerics.atomic import write_with
from numerics.validation import InvalidArgument

#: the environment variable that names the session's folder of shared runs
STORE = "CLAIMS_RUN_STORE"


def _name(fn, args, kwargs) -> str:
    text = repr((fn.__module__, fn.__qualname__, args, sorted(kwargs.items())))
    if " at 0x" in text:
        # an object without a value repr (a function, a lock) names nothing another process can find
        raise InvalidArgument(f"{fn.__qualname__}: arguments {text} have no repr another process "
                              "can share")
    return f"{fn.__qualname__}-{hashlib.sha256(text.encode()).hexdigest()[:20]}"


def _path(folder: str, fn, args, kwargs) -> Path:
    return Path(folder) / f"{_name(fn, args, kwargs)}.pkl"


def _lock(path: Path, timeout: float):
    from filelock import FileLock
    return FileLock(f"{path}.lock", timeout=timeout)


def _read(path: Path):
    return pickle.loads(path.read_bytes())


def _compute(fn, path: Path, args, kwargs):
    result = fn(*args, **kwargs)
    data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    write_with(path, lambda tmp: tmp.write_bytes(data))
    return result


def shared(fn):
    """``fn`` cached per process by its arguments and, where :data:`STORE` names a folder, shared
    through it.  ``fn.ahead(*args)`` computes and stores a run unless it is stored or another
    process holds it (the helper of ``verify.ahead``: it never waits on a run it was only asked to
    compute ahead); ``fn.ready(*args)`` says whether a call would find the run made."""
    if not callable(fn):
        raise InvalidArgument(f"fn must be a runner (callable), got {type(fn).__name__}")
    memo: dict = {}
    signature = inspect.signature(fn)

    def bound(args, kwargs):
        """The arguments as the call binds them, defaults filled in: ``f(cfg)`` and
        ``f(cfg, None)`` are one run."""
        call = signature.bind(*args, **kwargs)
        call.apply_defaults()
        return call.args, call.kwargs

    def key(args, kwargs):
        return args, tuple(sorted(kwargs.items()))

    @functools.wraps(fn)
    def run(*args, **kwargs):
        args, kwargs = bound(args, kwargs)
        k = key(args, kwargs)
        if k not in memo:
            folder = os.environ.get(STORE)
            if not folder:
                memo[k] = fn(*args, **kwargs)
            else:
                path = _path(folder, fn, args, kwargs)
                with _lock(path, -1):
                    memo[k] = _read(path) if path.exists() else _compute(fn, path, args, kwargs)
        return memo[k]

    def ahead(*args, **kwargs) -> bool:
        """Compute the run into the store unless it is there or being computed; True if this
        call computed it."""
        from filelock import Timeout
        if not os.environ.get(STORE):
            raise InvalidArgument(f"{fn.__qualname__}.ahead needs a run store: set {STORE} to a folder")
        args, kwargs = bound(args, kwargs)
        path = _path(os.environ[STORE], fn, args, kwargs)
        try:
            with _lock(path, 0):
                if path.exists():
                    return False
                memo[key(args, kwargs)] = _compute(fn, path, args, kwargs)
                return True
        except Timeout:
            return False

    def ready(*args, **kwargs) -> bool:
        """Whether the run is at hand: made in this process, or stored by any."""
        args, kwargs = bound(args, kwargs)
        folder = os.environ.get(STORE)
        return key(args, kwargs) in memo or bool(folder) and _path(folder, fn, args, kwargs).exists()

    run.ahead, run.ready = ahead, ready
    return run
