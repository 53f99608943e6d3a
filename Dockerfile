# The Tribunal bot as a container image. Build it with `docker build -t tribunalbot .`; run it
# with compose.yaml (the bot plus PostgreSQL with pgvector), or on its own:
#   docker run --init -e DISCORD_TOKEN -v tribunal-data:/data tribunalbot
# docs/deploying.md has every step. The bot runs as an unprivileged user; its
# database (SQLite unless storage.url says otherwise) lives in the /data volume, and a config
# file is mounted read-only and named by TRIBUNAL_CONFIG (compose uses /config/tribunal.toml).
# The exact Python release, and the digest of the image published for that tag: a rebuilt tag
# (Debian's security updates) is taken on purpose, by changing both. The digest is the one
# recorded for this tag, not checked from where this was written (no registry access): if a
# pull finds no such image, `docker buildx imagetools inspect python:3.11.14-slim-bookworm`
# gives the tag's current one.
FROM python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d

# XDG_DATA_HOME puts the default database at /data/tribunalbot/tribunal.db (platformdirs).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    XDG_DATA_HOME=/data

RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/tribunal tribunal \
    && mkdir -p /data /config \
    && chown tribunal:tribunal /data

WORKDIR /opt/tribunalbot
# Every dependency (the postgres extra's asyncpg, for storage.url = "postgresql://...", and
# setuptools to build the project) at the lock's version, each file checked against its
# hashes: a changed upload or a tampered mirror stops the build. First, so that a change to
# the code alone reuses this layer. requirements.lock says how it is remade.
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY tribunalbot ./tribunalbot
# The project alone, built with the locked setuptools (no build isolation: nothing fetched
# unchecked); `pip check` fails the build if the lock misses a dependency.
# hadolint ignore=DL3013
RUN pip install --no-cache-dir --no-deps --no-build-isolation . \
    && pip check

# By number, so that a runtime refusing root can tell this is not root.
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
# [metrics] port; served only when [metrics] enabled = true (and host = "0.0.0.0" in here).
EXPOSE 9464
# The bot stops gracefully on SIGTERM: games pause, the post in flight finishes, exit 0.
STOPSIGNAL SIGTERM
# With [metrics] on this asks the bot's /healthz (gateway connected, database answering);
# with metrics off it checks that the config loads and the database answers.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["tribunalbot", "healthcheck"]
ENTRYPOINT ["tribunalbot"]
CMD ["bot"]
