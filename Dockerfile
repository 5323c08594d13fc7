# The card room's server as a container image (docs/deployment.md, "With a container").
# Build: docker build -t cardroom .
# Run:   docker run -d --name cardroom --restart unless-stopped -p 127.0.0.1:8000:8000 \
#          --env-file /etc/cardroom/cardroom.env -v /etc/cardroom:/etc/cardroom:ro \
#          -v /var/lib/cardroom:/var/lib/cardroom cardroom
FROM python:3.12-slim-bookworm

# pg_dump for `cardroom backup` of a PostgreSQL room; tzdata for the room's time zone
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client tzdata \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --system --home-dir /var/lib/cardroom --create-home cardroom

WORKDIR /opt/cardroom
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir .

USER cardroom
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/login')"]
ENTRYPOINT ["cardroom"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--audit-key-file", "/etc/cardroom/audit.key", "--anchors", "/var/lib/cardroom/anchors", "--secure-cookies"]
