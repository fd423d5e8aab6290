#!/bin/sh
# Local stand-ins for the three public images this project names (python:3.11-slim,
# redis:7-alpine, nginx:1.27-alpine), for a Debian machine whose Docker engine cannot
# reach the public registry but whose apt can reach Debian's mirrors. Run as root with
# dockerd running; takes a few minutes. docs/OPERATIONS.md says how to use them.
#
#   sh deploy/standins.sh
#   docker build --build-arg BASE=python:3.11-slim -t chemgames-rules:local .
#
# The base is Debian bookworm's Python 3.11 (not the official image's build of it);
# Redis and nginx are Debian's packages under the official images' names. Good for
# trying the image and the stack, not for production.
set -eu

MIRROR=${MIRROR:-http://deb.debian.org/debian}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

command -v debootstrap >/dev/null || apt-get install -y debootstrap
docker info >/dev/null

# python:3.11-slim: a minimal bookworm with python3 and venv
debootstrap --variant=minbase --include=python3,python3-venv,python-is-python3,ca-certificates \
    bookworm "$WORK/rootfs" "$MIRROR"
# a network that re-signs TLS: give pip inside the image this machine's CA bundle
if [ -n "${CA_BUNDLE:-}" ]; then
    cp "$CA_BUNDLE" "$WORK/rootfs/etc/ssl/certs/ca-certificates.crt"
    printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$WORK/rootfs/etc/pip.conf"
fi
tar -C "$WORK/rootfs" -c . | docker import \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    - python:3.11-slim

# redis:7-alpine: Debian's redis-server, reachable from other containers as the
# official image is (it adds --protected-mode no)
mkdir "$WORK/redis"
cat > "$WORK/redis/Dockerfile" <<'EOF'
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/*
ENTRYPOINT ["/bin/sh", "-c", "exec \"$@\" --protected-mode no", "redis"]
CMD ["redis-server"]
EOF
docker build -t redis:7-alpine "$WORK/redis"

# nginx:1.27-alpine: Debian's nginx-light, serving conf.d/*.conf in the foreground
mkdir "$WORK/nginx"
cat > "$WORK/nginx/Dockerfile" <<'EOF'
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends nginx-light \
    && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
EOF
docker build -t nginx:1.27-alpine "$WORK/nginx"

docker images python:3.11-slim
docker images redis:7-alpine
docker images nginx:1.27-alpine
