"""Instructions a hosted move's ``flow.play`` executes, counted by callgrind: a measure
that a busy machine does not move.

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=ffi_call \\
        --callgrind-out-file=/tmp/cg.out .venv/bin/python -m bench.move_ir [--games 2]

Plays whole element-draft games in process through the app's WSGI entry (as
``bench.move_cpu``: Idempotency-Keys sent, rate limits counted, Redis at REDIS_URL),
and runs every ``flow.play`` of the measured games inside a ctypes callback: called
from Python, a callback goes through libffi's ``ffi_call``, so callgrind, told to
count only inside ``ffi_call``, counts those calls and nothing else (not the imports,
not the test client, not the reads that choose the moves). The collected total
(``Collected :`` on valgrind's standard error) over the moves printed is the figure;
``callgrind_annotate /tmp/cg.out`` says where it went, by C function (zlib, OpenSSL,
orjson and the interpreter).

Two checkouts give the same count within about 1% run to run (seeded games, the
collector frozen as ``gunicorn.conf.py`` freezes it), however loaded the machine is.
Instructions are not time: memory stalls and system calls are not in them (and
valgrind counts a ``rep stosb`` memset byte by byte), so confirm a change in time too
(``bench.move_cpu``, or both behaviours alternated in one process). About 40 times
slower than a normal run: 2 games take minutes. ``bench.move_instructions`` counts
whole requests instead (hooks, rate limits, parsing, the answer; stateless games too)
and alternates a baseline checkout by itself.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import time
from collections.abc import Callable
from typing import Any

from .move_cpu import in_process_settings, play

_CALLBACK = ctypes.CFUNCTYPE(None)


class Counted:
    """``fn`` run inside a ctypes callback while ``on``: what callgrind counts."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.on = False
        self.calls = 0
        self.cpu = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.on:
            return self.fn(*args, **kwargs)
        out: list[Any] = []
        failed: list[BaseException] = []

        def run() -> None:
            try:
                out.append(self.fn(*args, **kwargs))
            except BaseException as err:  # a callback cannot raise: carried out of it
                failed.append(err)

        began = time.process_time()
        _CALLBACK(run)()
        self.cpu += time.process_time() - began
        self.calls += 1
        if failed:
            raise failed[0]
        return out[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2, help="games measured")
    parser.add_argument("--warm", type=int, default=1, help="games played first, not counted")
    args = parser.parse_args()
    in_process_settings()
    from service import create_app
    from service.sessions import flow

    app = create_app()
    client = app.test_client()
    counted = Counted(flow.play)
    flow.play = counted  # Hosted.write calls it through the module
    for seed in range(args.warm):
        play(client, "element-draft", args.players, 10_000 + seed)
    gc.collect()
    gc.freeze()  # as gunicorn.conf.py's post_worker_init does
    counted.on = True
    for seed in range(args.games):
        play(client, "element-draft", args.players, seed)
    print(
        f"{counted.calls} moves measured; divide callgrind's collected total by them "
        f"(CPU under valgrind {1000 * counted.cpu / max(1, counted.calls):.1f} ms a move)"
    )


if __name__ == "__main__":
    main()
