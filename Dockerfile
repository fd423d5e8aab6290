# Production image: gunicorn serving the rules service.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    CHEMGAMES_HOME=/app \
    BIND=0.0.0.0:8000

WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gcc make \
    && rm -rf /var/lib/apt/lists/*

COPY pyproject.toml README.md ./
COPY rules ./rules
COPY service ./service
RUN pip install . && apt-get purge -y gcc && apt-get autoremove -y

COPY gunicorn.conf.py ./
COPY docs ./docs
COPY openapi ./openapi

RUN useradd --create-home --uid 10001 app && mkdir -p /app/instance && chown app /app/instance
USER app
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
# STATE_KEYS and REDIS_URL come from the environment (see README, Configuration).
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service:create_app()"]
