# The console as a container image (docs/deployment.md).
#
#   docker build -t console:0.1.0 .
#   docker run -d --name console --read-only --tmpfs /tmp:rw,size=256m -v console-data:/data \
#     -p 8080:8080 -p 1883:1883 --stop-timeout 40 console:0.1.0
#
# Three stages: `build` installs every workspace and runs `npm run build` (the console into web/dist, the server
# bundle into server/dist/main.js); `deps` installs only the server's production dependencies (the bundle keeps
# them external; the contract is bundled in); the runtime stage holds those, the bundle, the migrations and the
# built console, and runs as the unprivileged user `node`. Nothing is written outside DATA_DIR (/data) and /tmp,
# so the container runs with a read-only root file system.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# the manifests first: the install layer is reused while no package.json and the lock file are unchanged
COPY package.json package-lock.json .npmrc ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY contract contract
COPY server server
COPY web web
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# the server's dependencies only (no web, test or build tools), at the lock file's versions. No install script
# is needed: native code comes as prebuilt packages (@node-rs/argon2-linux-x64-gnu), and the one script among them
# (@alicloud/openapi-core's postinstall) does nothing on Node 20. The workspace links are dropped: the contract is
# in the bundle.
RUN npm ci --omit=dev --workspace=@console/server --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/@console

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    MQTT_PORT=1883 \
    DATA_DIR=/data \
    SERVER_HEAP_MB=512
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
# server/package.json gives /version.json its version (BUILD_VERSION overrides it); the migrations are found by
# walking up from server/dist to server/drizzle; the console is served from web/dist (../../web/dist from the bundle)
COPY server/package.json server/
COPY server/drizzle server/drizzle
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/web/dist web/dist
# the data volume: the embedded database, secrets.json when the keys are not in the environment, uploaded files
# on local disk, and the staging of uploads bound for S3
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
# 8080 the console and the API; 1883 the embedded MQTT broker of the device gateway
EXPOSE 8080 1883
# liveness only (the process answers): readiness (/readyz) is the proxy's business. No curl in the slim image.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# node itself is PID 1 (exec), so it gets SIGTERM and stops gracefully; SERVER_HEAP_MB as for `npm run serve`
CMD ["/bin/sh", "-c", "exec node --max-old-space-size=\"${SERVER_HEAP_MB:-512}\" server/dist/main.js"]
