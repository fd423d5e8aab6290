"""Where a verified resource-link launch lands.

An instructor lands on the lesson page of the lesson for (platform, context, resource
link); a learner joins that lesson with the LMS identity (``sub``) and lands on their
seat page. Lessons (issue 30) are not on this branch yet, so a verified resource-link
launch is answered with a page saying so (``501``), having created nothing.
"""

from __future__ import annotations

from flask import Response

from . import html
from .launch import Launch


def land(launch: Launch) -> Response:
    game = launch.custom.get("game", "")
    return html.refused(
        "lessons_unavailable",
        "This activity could not be opened",
        f"Your launch was verified ({'teacher' if launch.teaches else 'student'}, "
        f"game {game!r}), but this deployment cannot run lessons yet, which LTI activities "
        "open into.",
        status=501,
        frame_origins=launch.platform.origins(),
    )
