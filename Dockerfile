# syntax=docker/dockerfile:1
# The same steps as the README: `npm ci` and `npm run build`, then what `npm start` runs.
# Production runs the current Node LTS (26 since October 2026); the code also runs on Node 20.
ARG NODE_IMAGE=node:26-slim

# 1. Install every dependency (better-sqlite3 compiles here) and build.
FROM ${NODE_IMAGE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# 2. Production dependencies only, keeping the native module compiled above for this Node.
FROM build AS production-deps
RUN npm prune --omit=dev

# 3. The runtime: built files, production dependencies, a non-root user. With an https SITE_URL
# the server refuses to start while `npm run launch-check` lists anything (example contact
# details, the placeholder company registration, illustrative testimonials, unsourced figures);
# ALLOW_PLACEHOLDER_CONTENT=1 (docker run -e) starts it anyway, for a demo. Not set here on purpose.
FROM ${NODE_IMAGE} AS runtime
# The pages' compressed copies are kept in the volume too: a restart with the same content (a
# new container, the same pages) starts in about a second instead of spending seconds on brotli.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_PATH=/app/data/site.db \
    PAGE_CACHE_DIR=/app/data/page-cache
WORKDIR /app
COPY --from=production-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/scripts/start.mjs ./scripts/start.mjs
COPY --from=build --chown=node:node /app/scripts/lib/build-freshness.mjs ./scripts/lib/build-freshness.mjs
# The database, its backups and mail hold personal data: the folder is the node user's alone, and
# the server sets umask 077 itself, so that each file it creates there is too.
RUN mkdir -p /app/data && chown node:node /app/data && chmod 700 /app/data
USER node
# The SQLite file (with its -wal and -shm) and the .eml mail folder live here.
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
STOPSIGNAL SIGTERM
# Exactly what `npm start` runs. Not `npm start` itself: npm exits on SIGTERM without passing it
# on, which would skip the graceful shutdown (see docs/decisions/004-container-start-command.md).
CMD ["node", "scripts/start.mjs"]
