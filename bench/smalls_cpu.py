"""Small per-request costs of a hosted move, the old way against this checkout's.

    .venv/bin/python -m bench.smalls_cpu [--repeats 9] [--number 20000]

In one gevent-patched process (as a gunicorn worker), each pair in turns, microseconds
a call (median and range of the repeats):

* a bounded wait's timer: gevent's ``Timeout`` made and cancelled, as its socket
  ``recv``, its queue's ``get`` and gunicorn's keep-alive make one per wait, against
  :class:`service.base.waits.Deadline` armed and stopped;
* a credential's fingerprint: sha256 against :func:`service.http.auth.fingerprint`;
* an app extension: ``current_app.extensions[...]`` against
  :func:`service.http.context.extension`;
* the pool's fork check: redis-py's ``_checkpid`` against :class:`Pool`'s.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import hashlib  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import timeit  # noqa: E402
from collections.abc import Callable  # noqa: E402

import redis  # noqa: E402
from flask import Flask, current_app  # noqa: E402
from gevent import Timeout  # noqa: E402

from service.base.redis_client import Pool  # noqa: E402
from service.base.waits import Deadline  # noqa: E402
from service.http.auth import fingerprint  # noqa: E402
from service.http.context import extension  # noqa: E402


def pairs() -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    deadline = Deadline(5, Timeout)
    credential = "s1." + "A" * 120
    pool = Pool.from_url("redis://127.0.0.1:6379/15", max_connections=2)

    def timer() -> None:
        Timeout._start_new_or_dummy(1.0).cancel()

    def armed() -> None:
        deadline.start()
        deadline.stop()

    return {
        "a bounded wait's timer": (timer, armed),
        "fingerprint": (
            lambda: hashlib.sha256(credential.encode()).hexdigest()[:24],
            lambda: fingerprint(credential),
        ),
        "an app extension": (
            lambda: current_app.extensions["chemgames.sealer"],
            lambda: extension("chemgames.sealer"),
        ),
        "the pool's fork check": (
            lambda: redis.BlockingConnectionPool._checkpid(pool),
            pool._checkpid,
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--number", type=int, default=20_000)
    args = parser.parse_args()
    app = Flask(__name__)
    app.extensions["chemgames.sealer"] = object()
    with app.app_context():
        for name, (old, new) in pairs().items():
            took: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(args.repeats):
                for way, call in (("old", old), ("new", new)):
                    took[way].append(timeit.timeit(call, number=args.number) / args.number * 1e6)
            print(
                f"{name}: "
                + ", ".join(
                    f"{way} {statistics.median(v):.2f} us ({min(v):.2f}-{max(v):.2f})"
                    for way, v in took.items()
                )
            )
    print("load average", " ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
