"""What a seat page asks the service for while its game is played (issue 32): the
page's requests a move, by kind, for this checkout's pages and, with ``--baseline DIR``,
another checkout's, each served by its own gunicorn and Redis (``bench.bgio``'s).

    .venv/bin/python -m bench.page_requests [--baseline DIR] [--game chemistry-battle]
        [--players 4] [--moves 40]

One page in Debian's Chromium (through Playwright, as the browser tests drive it) follows
seat 0 of a hosted game whose other seats are greedy bots. Seat 0 moves through the API
(its first legal move), as another device of the seat would, so the page only follows:
what it asks for is what a student's phone asks for while the others play. Requests
are counted from the page's first view to the last move, and divided by the moves
committed in that time. Counts, not times: the machine's speed does not move them.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .bgio.__main__ import start_service
from .harness import ROOT, Client, stop

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def kind(method: str, url: str) -> str:
    """A request's kind, by what it asks for.

    >>> kind("GET", "http://h/v1/element-draft/sessions/ab12?seat=0")
    'view'
    >>> kind("GET", "http://h/v1/element-draft/sessions/ab12/events?seat=0")
    'stream'
    >>> kind("POST", "http://h/v1/element-draft/sessions/ab12/legal-moves")
    'legal-moves'
    """
    path = url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0]
    if re.fullmatch(r"v1/[\w-]+/sessions/\w+", path):
        return "view" if method == "GET" else f"{method} session"
    if m := re.fullmatch(r"v1/[\w-]+/sessions/\w+/([\w-]+)", path):
        return "stream" if m.group(1) == "events" else m.group(1)
    return "other"


class Api:
    """JSON in and out over one kept-alive connection."""

    def __init__(self, base: str) -> None:
        self.client = Client(int(base.rsplit(":", 1)[1]))

    def get(self, path: str, headers: dict[str, str]) -> tuple[int, Any]:
        status, data, _ = self.client.get(path, headers)
        return status, json.loads(data)

    def post(
        self, path: str, body: object, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        status, data, _ = self.client.post(path, json.dumps(body).encode(), headers)
        return status, json.loads(data)


def follow(base: str, page: Any, game: str, players: int, moves: int) -> dict[str, Any]:
    """Plays one game with ``page`` following seat 0; the page's requests by kind."""
    from service.games.pages import join_link

    api = Api(base)
    bots = {str(seat): "greedy" for seat in range(1, players)}
    status, made = api.post(f"/v1/{game}/sessions", {"players": players, "bots": bots, "seed": 3})
    assert status == 201, made
    sid, token = made["session_id"], made["seats"][0]["seat_token"]
    auth = {"Authorization": f"Bearer {token}"}
    asked: list[tuple[str, str]] = []
    page.on("request", lambda request: asked.append((request.method, request.url)))
    page.goto(base + join_link(game, sid, 0, token))
    page.locator(".connection-live").wait_for()
    page.wait_for_timeout(1000)  # the first view's legal moves (an open stream is never idle)
    start = len(asked)
    first = last = api.get(f"/v1/{game}/sessions/{sid}?seat=0", headers=auth)[1]["version"]
    for _ in range(moves):
        _, now = api.get(f"/v1/{game}/sessions/{sid}?seat=0", headers=auth)
        last = now["version"]
        if now["outcome"]["finished"]:
            break
        if 0 not in now["to_act"]:
            time.sleep(0.05)  # a bot's move is due
            continue
        _, legal = api.post(f"/v1/{game}/sessions/{sid}/legal-moves", {"seat": 0}, headers=auth)
        body = {"seat": 0, "version": now["version"], "move": legal["moves"][0]}
        status, answer = api.post(f"/v1/{game}/sessions/{sid}/moves", body, headers=auth)
        assert status == 200, answer
        last = answer["version"]
        page.wait_for_function(
            "v => Number(document.querySelector('[data-version]')?.dataset.version ?? -1) >= v"
            " || document.querySelector('#scores-heading') !== null",
            arg=last,
        )
    page.wait_for_timeout(1000)  # what the last frame sets off
    counts = Counter(kind(method, url) for method, url in asked[start:])
    return {"moves": last - first, "requests": dict(counts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, default=None, help="another checkout to compare")
    parser.add_argument("--game", default="chemistry-battle")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=40, help="seat 0's turns at most")
    args = parser.parse_args()
    from cryptography.fernet import Fernet
    from playwright.sync_api import sync_playwright

    roots = {"this checkout": ROOT}
    if args.baseline is not None:
        roots["baseline"] = args.baseline.resolve()
    # one key for both servers: a hosted seed is mixed with it, so both deal the same game
    key = {"STATE_KEYS": Fernet.generate_key().decode()}
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for name, root in roots.items():
            server = start_service(Path(tmp), f"service-{len(results)}", root, extra_env=key)
            try:
                page = browser.new_page(viewport={"width": 360, "height": 640})
                results[name] = follow(server.url, page, args.game, args.players, args.moves)
                page.close()
            finally:
                for proc in server.procs:
                    stop(proc)
        browser.close()
    kinds = sorted({k for r in results.values() for k in r["requests"]})
    print(f"| page | moves | {' | '.join(kinds)} | requests/move |")
    print(f"| --- | ---: | {' | '.join('---:' for _ in kinds)} | ---: |")
    for name, r in results.items():
        n = max(r["moves"], 1)
        per = " | ".join(f"{r['requests'].get(k, 0) / n:.2f}" for k in kinds)
        print(f"| {name} | {r['moves']} | {per} | {sum(r['requests'].values()) / n:.2f} |")
    out = ROOT / "bench" / "out" / f"page-requests-{time.strftime('%Y-%m-%dT%H%M%S')}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps({"args": vars(args) | {"baseline": str(args.baseline)}, "results": results})
    )
    print(f"\n{out}")


if __name__ == "__main__":
    main()
