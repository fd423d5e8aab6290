# Production image: gunicorn serving the rules service, built the way `make serve`
# builds it (a virtual environment, `pip install` of this project, then
# `gunicorn --config gunicorn.conf.py 'service:create_app()'`) without the
# development extras: no test tools, no embedded Redis (set REDIS_URL), no compiler.

# python:3.11-slim, pinned to the digest of its multi-platform image index, as
# published in docker-library/repo-info (repos/python/remote/3.11-slim.md at commit
# 2477d553d2fdfa57b4ec11f63c8376eca8b7a253: Python 3.11.15 on Debian trixie, built
# 2026-08-05). To move on: `docker buildx imagetools inspect python:3.11-slim`.
FROM python:3.11-slim@sha256:90744cff8f32887f075c47d747a173ff333e9e98801667af93c357fa9f5e28ff AS base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Every compiled dependency (cryptography, orjson, gevent, greenlet) installs from a
# binary wheel; the slim image has no compiler, so one that needed building would
# fail here rather than reach the final stage.
FROM base AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY rules ./rules
COPY service ./service
RUN python -m venv /venv && /venv/bin/pip install --no-cache-dir .

FROM base
ENV PATH=/venv/bin:$PATH \
    CHEMGAMES_HOME=/app \
    BIND=0.0.0.0:8000
WORKDIR /app
COPY --from=build /venv /venv
COPY gunicorn.conf.py LICENSE ./
COPY docs ./docs
COPY openapi ./openapi
RUN groupadd --gid 10001 app \
    && useradd --uid 10001 --gid 10001 --create-home app \
    && mkdir -p /app/instance && chown 10001:10001 /app/instance
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
# STATE_KEYS and REDIS_URL come from the environment (README, Configuration); without
# REDIS_URL the server refuses to start, since this image has no embedded Redis.
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service:create_app()"]
