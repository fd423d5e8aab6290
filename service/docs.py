"""OpenAPI documentation of problem responses: which codes each status may carry."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from copy import deepcopy
from typing import Any

from flask_smorest import Blueprint

from .problems import PROBLEM_JSON, SERVICE_PROBLEMS, TYPE_BASE
from .schemas.common import ProblemSchema

F = Callable[..., Any]

# Problems any JSON POST endpoint may answer with.
BODY_ERRORS: Mapping[int, tuple[str, ...]] = {
    400: ("malformed_json",),
    413: ("body_too_large",),
    415: ("unsupported_media_type",),
    422: ("invalid_request",),
}
TOKEN_ERRORS: Mapping[int, tuple[str, ...]] = {
    400: ("token_invalid", "token_wrong_game", "token_version_unsupported"),
}
SEAT_ERRORS: Mapping[int, tuple[str, ...]] = {
    403: ("seat_token_invalid",),
    422: ("seat_out_of_range",),
}


def merge(*tables: Mapping[int, Iterable[str]]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for table in tables:
        for status, codes in table.items():
            bucket = out.setdefault(status, [])
            bucket.extend(c for c in codes if c not in bucket)
    return out


def _example(code: str, status: int) -> dict[str, Any]:
    kind = SERVICE_PROBLEMS.get(code)
    return {
        "type": TYPE_BASE + code,
        "title": kind.title if kind else code.replace("_", " ").capitalize(),
        "status": status,
        "detail": kind.description if kind else "See the rules document for this code.",
        "code": code,
    }


def problems(blp: Blueprint, table: Mapping[int, Iterable[str]]) -> Callable[[F], F]:
    """Document each status with the problem schema and the codes it may carry.

    Writes the same documentation as ``blp.alt_response`` but adds no wrapper, so a
    request does not pay one extra call layer per documented status.
    """

    def decorate(fn: F) -> F:
        doc: dict[str, Any] = deepcopy(getattr(fn, "_apidoc", {}))
        responses = doc.setdefault("response", {}).setdefault("responses", {})
        for status, codes in sorted(table.items()):
            codes = list(codes)
            responses.setdefault(status, []).append(
                {
                    "schema": blp._make_doc_response_schema(ProblemSchema()),
                    "description": "Problem details; `code` is one of: "
                    + ", ".join(f"`{c}`" for c in codes),
                    "example": _example(codes[0], status),
                    "content_type": PROBLEM_JSON,
                }
            )
        fn._apidoc = doc  # type: ignore[attr-defined]
        return fn

    return decorate
