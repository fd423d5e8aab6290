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

# python:3.11-slim: a minimal bookworm with python3 and venv, shaped like the official
# image where the Dockerfile can tell: pip, setuptools and wheel installed under
# /usr/local (from Debian's own wheels, offline), no EXTERNALLY-MANAGED marker (the
# official image has none, and the Dockerfile removes these three from its final
# stage), no apt caches
debootstrap --variant=minbase \
    --include=python3,python3-venv,python3-wheel-whl,python-is-python3,ca-certificates \
    bookworm "$WORK/rootfs" "$MIRROR"
rm -f "$WORK"/rootfs/usr/lib/python3*/EXTERNALLY-MANAGED
chroot "$WORK/rootfs" sh -c 'set -- /usr/share/python-wheels/pip-*.whl && python3 "$1/pip" \
    install --quiet --no-index --find-links /usr/share/python-wheels --root-user-action=ignore \
    pip setuptools wheel'
chroot "$WORK/rootfs" python3 -m pip --version
rm -rf "$WORK"/rootfs/var/cache/apt/archives/*.deb "$WORK"/rootfs/var/lib/apt/lists/*
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

# nginx:1.27-alpine: Debian's nginx-light, serving conf.d/*.conf in the foreground, its
# logs on the container's output (docker logs) as the official image's are
mkdir "$WORK/nginx"
cat > "$WORK/nginx/Dockerfile" <<'EOF'
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends nginx-light \
    && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default \
    && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
EOF
docker build -t nginx:1.27-alpine "$WORK/nginx"

docker images python:3.11-slim
docker images redis:7-alpine
docker images nginx:1.27-alpine
