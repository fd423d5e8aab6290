# Production image: gunicorn serving the rules service, built the way `make serve`
# builds it (a virtual environment, `pip install` of this project, then
# `gunicorn --config gunicorn.conf.py 'service:create_app()'`) without the
# development extras: no test tools, no embedded Redis (set REDIS_URL), no compiler.

# python:3.11-slim, pinned to the digest of its multi-platform image index, as
# published in docker-library/repo-info (repos/python/remote/3.11-slim.md at commit
# 2477d553d2fdfa57b4ec11f63c8376eca8b7a253: Python 3.11.15 on Debian trixie, built
# 2026-08-05). To move on: `docker buildx imagetools inspect python:3.11-slim`.
# BASE replaces it where that image cannot be pulled (docs/OPERATIONS.md: stand-ins).
ARG BASE=python:3.11-slim@sha256:90744cff8f32887f075c47d747a173ff333e9e98801667af93c357fa9f5e28ff
FROM ${BASE} AS base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Every compiled dependency (cryptography, orjson, zstandard, gevent, greenlet) installs from a
# binary wheel; the slim image has no compiler, so one that needed building would
# fail here rather than reach the final stage.
# That is why `.` and not `.[fast]`: gunicorn's C parser of request heads (gunicorn_h1c)
# is published as source only; without it gunicorn reads them with its Python parser,
# same refusals, more CPU a request (docs/OPERATIONS.md, "The image and compose").
FROM base AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY rules ./rules
COPY service ./service
# pip and setuptools build the environment, then leave it: nothing at run time uses them
RUN python -m venv /venv && /venv/bin/pip install --no-cache-dir . \
    && /venv/bin/pip uninstall --yes pip setuptools

FROM base
# and the base image's own copies (python:3.11-slim has pip, setuptools and wheel, and
# so has the stand-in of deploy/standins.sh; a base without them has nothing to remove)
RUN if python -m pip --version >/dev/null 2>&1; then \
        python -m pip uninstall --yes pip setuptools wheel; \
    fi
# REQUIRE_STATE_KEYS: an instance with a key of its own could not open another's
# tokens, and its restart would void every token in play, so without STATE_KEYS the
# server refuses to start (`make serve` makes a development key instead).
ENV PATH=/venv/bin:$PATH \
    CHEMGAMES_HOME=/app \
    BIND=0.0.0.0:8000 \
    REQUIRE_STATE_KEYS=1
WORKDIR /app
COPY --from=build /venv /venv
COPY gunicorn.conf.py LICENSE deploy/healthcheck.py ./
COPY docs ./docs
RUN groupadd --gid 10001 app \
    && useradd --uid 10001 --gid 10001 --create-home app
USER 10001:10001
EXPOSE 8000
# GET /healthz on the port BIND names (deploy/healthcheck.py)
HEALTHCHECK --interval=30s --timeout=3s CMD ["python", "/app/healthcheck.py"]
# STATE_KEYS and REDIS_URL come from the environment (README, Configuration); without
# either the server refuses to start and says why (no embedded Redis in this image).
# Nothing is written to the file system: `docker run --read-only` works.
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service:create_app()"]
