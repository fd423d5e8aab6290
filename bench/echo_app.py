"""The baseline: a bare Flask app that echoes the JSON body it receives.

Served by the same gunicorn configuration as the service, so the ratio of the two
measures what the rules service adds on top of Flask + gunicorn + JSON.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request


def create_app() -> Flask:
    app = Flask(__name__)

    @app.post("/echo")
    def echo() -> Any:
        return jsonify(request.get_json())

    return app
