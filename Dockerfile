# Flotilla server image (docs/deploy.md). Build from the repository root:
#   podman build -t flotilla:dev .        (or docker build)
# One stateless node: PostgreSQL, Redis and the registry are external (deploy/compose,
# deploy/kubernetes). The dashboard and the server bundle are built in the first stage; the
# second stage keeps production dependencies only and runs as an unprivileged user.

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/model/package.json packages/model/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY packages/agent/package.json packages/agent/
COPY packages/cli/package.json packages/cli/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# No install scripts: the few packages that have them (native USB/drive tools of balena-cli, a
# dev dependency) are not needed to build; esbuild and argon2 ship prebuilt binaries.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    FLOTILLA_DATA_DIR=/var/lib/flotilla
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/model/package.json packages/model/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY packages/agent/package.json packages/agent/
COPY packages/cli/package.json packages/cli/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
# What the server reads at run time (packages/server/src/paths.ts): its bundle, migrations, the
# dashboard build, the guides served at /docs/, and the agent and model sources it bundles
# into the single-file agent served at /download/agent.
COPY --from=build /src/packages/server/dist packages/server/dist
COPY --from=build /src/packages/server/migrations packages/server/migrations
COPY --from=build /src/packages/web/dist packages/web/dist
COPY packages/model/src packages/model/src
COPY packages/agent/src packages/agent/src
COPY packages/agent/bin packages/agent/bin
COPY docs/guide docs/guide
# files/ exists in the image, owned by the user, so a volume mounted there (release assets,
# shared by every node) starts with that ownership.
RUN useradd --system --uid 10001 --home-dir /var/lib/flotilla --create-home flotilla \
 && mkdir -p /var/lib/flotilla/files && chown -R flotilla:flotilla /var/lib/flotilla
USER flotilla
EXPOSE 8080
VOLUME ["/var/lib/flotilla"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ping').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "packages/server/dist/main.mjs"]
