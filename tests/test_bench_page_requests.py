"""bench.page_requests sorts a page's requests by what they ask for; its figures are the
seat page's view reads a move (bench/README.md), so a request it sorted wrongly would
move them."""

from __future__ import annotations

import doctest

import pytest

from bench import page_requests


@pytest.mark.parametrize(
    ("method", "url", "kind"),
    [
        ("GET", "http://127.0.0.1:1/v1/polymer/sessions/0a1b?seat=3", "view"),
        ("GET", "http://127.0.0.1:1/v1/polymer/sessions/0a1b", "view"),
        ("GET", "http://127.0.0.1:1/v1/polymer/sessions/0a1b/events", "stream"),
        ("GET", "http://127.0.0.1:1/v1/polymer/sessions/0a1b/record?seat=0", "record"),
        ("GET", "http://127.0.0.1:1/v1/polymer/sessions/0a1b/scores", "scores"),
        ("POST", "http://127.0.0.1:1/v1/polymer/sessions/0a1b/moves", "moves"),
        ("GET", "http://127.0.0.1:1/play/assets/seat-X.js", "other"),
        ("GET", "http://127.0.0.1:1/v1/games/polymer", "other"),
    ],
)
def test_each_request_is_sorted_by_what_it_asks_for(method: str, url: str, kind: str) -> None:
    assert page_requests.kind(method, url) == kind


def test_the_examples_in_its_docstrings_hold() -> None:
    assert doctest.testmod(page_requests).failed == 0
