# syntax=docker/dockerfile:1
# One image for the server (`serve`, the default command) and the migration job (`migrate`).
# Build: docker build -t delivery-analytics:<version> --build-arg RELEASE_VERSION=<version> .
# Node 24 slim, the current LTS; CI runs the whole suite on Node 24 and on Node 20 (package.json
# `engines`), so `--build-arg NODE_IMAGE=node:20-slim` still works where 24 cannot (docs/deploy.md).
ARG NODE_IMAGE=node:24-slim

# All dependencies, for compiling.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# Compiled server (dist/) and web app (web/dist, precompressed; `npm run build` fails when its main
# script is over budget). schema/ (the semantic layer's models) is created empty when absent so the
# runtime stage can always copy it. sql-source/ is src/<capability>/sql/*.sql alone, the views and
# functions `migrate` applies (docs/sql-source.md), shipped as src/ without the TypeScript.
FROM deps AS build
COPY . .
RUN npm run build \
 && mkdir -p web/dist schema sql-source \
 && (cd src && cp --parents */sql/*.sql ../sql-source/)

# Production dependencies only, installed from the same lock file.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ARG RELEASE_VERSION=dev
ENV NODE_ENV=production \
    RELEASE_VERSION=${RELEASE_VERSION} \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY migrations ./migrations
COPY corpus ./corpus
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/schema ./schema
COPY --from=build /app/sql-source ./src
# Everything above is owned by root and read-only to the process: it writes nothing to disk.
USER node
EXPOSE 3000
# Liveness only (no database round trip): node:slim has no curl, so Node's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# bin/ runs dist/main.js when it exists, as it does here.
ENTRYPOINT ["node", "bin/delivery-analytics.js"]
CMD ["serve"]
