# syntax=docker/dockerfile:1
# manacalc: build a wheel (with every dependency as a wheel) in the first stage, install it into a
# virtualenv in the second; the runtime image holds no compiler, no source tree, no pip cache.
#   docker build -t manacalc .
#   docker run --rm -p 8000:8000 manacalc          (SQLite in the volume /var/lib/manacalc)
# docker-compose.yml runs it with PostgreSQL and 4 workers; see README.md, "Deployment".
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
# A C compiler in the build stage only: setup.py compiles the rules core with mypyc (2-5x faster answers).
# Debian's bookworm packages are not versioned here on purpose: the image follows the base image's point
# release, and gcc only builds; nothing of it reaches the runtime stage.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md constraints.txt ./
COPY tools/mypyc.ini ./tools/
COPY app ./app
COPY migrations ./migrations
# constraints.txt pins every dependency: the image is built from the versions CI tested. The redis extra
# is the shared rate limit (MANACALC_REDIS_URL, set by docker-compose.yml and the Kubernetes Secret).
RUN pip wheel --constraint constraints.txt --wheel-dir /wheels '.[redis]'

FROM ${PYTHON_IMAGE} AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PATH=/opt/manacalc/bin:$PATH \
    MANACALC_DATABASE_URL=sqlite:////var/lib/manacalc/manacalc.db
# The wheels are bind-mounted from the build stage, so they never become a layer of this image.
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    python -m venv /opt/manacalc \
    && /opt/manacalc/bin/pip install --no-index --find-links /wheels 'manacalc[redis]' \
    && /opt/manacalc/bin/python -c "from app.services.catalogue_snapshot import core_build as b; assert b() == 'mypyc', b()" \
    && groupadd --system --gid 10001 manacalc \
    && useradd --system --uid 10001 --gid manacalc --no-create-home --home-dir /var/lib/manacalc manacalc \
    && install -d -o manacalc -g manacalc -m 0750 /var/lib/manacalc
COPY --chmod=0755 docker/entrypoint.sh /usr/local/bin/manacalc-entrypoint
USER 10001:10001
WORKDIR /var/lib/manacalc
VOLUME ["/var/lib/manacalc"]
EXPOSE 8000
# Liveness only (no database access): readiness is GET /readyz, for load balancers and orchestrators.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4); sys.exit(0 if r.status == 200 else 1)"]
ENTRYPOINT ["manacalc-entrypoint"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
