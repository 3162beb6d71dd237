# Tessera game server image. Build:  docker build -t tessera .
# Run:  docker run -d --name tessera --init --restart unless-stopped -p 80:3000 \
#         -v tessera-data:/data --cpus=2 --memory=1g tessera
# See docs/OPERATIONS.md for sizing, reverse proxies, logs, metrics and upgrades.

# ---- build: all dependencies, compile TypeScript, then drop dev dependencies ----
FROM node:24.21.0-bookworm-slim AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=warn
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=warn \
 && npm cache clean --force

# ---- runtime: compiled JavaScript and production dependencies only ----
FROM node:24.21.0-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_LEVEL=info \
    TESSERA_DATA_DIR=/data
WORKDIR /app
# The application is owned by root and read-only to the server; only /data is writable.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
# dist/ holds the product build only (tsconfig.build.json): server, bot-engine, web. No bench/, no test/.
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
# uid:gid 1000:1000 is the base image's `node` user (numeric so Kubernetes' runAsNonRoot can verify it).
USER 1000:1000
EXPOSE 3000
# fetch is built into Node: no curl in the image. PORT may be overridden at run time.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) makes the server stop accepting, save games and exit 0.
STOPSIGNAL SIGTERM
# V8 flags chosen by measurement (docs/BENCHMARKS.md, main thread per move): the old generation
# may grow to twice its live size before a full GC, so far fewer full GCs pause the event loop.
CMD ["node", "--heap-growing-percent=100", "--max-semi-space-size=4", "dist/server/main.js"]
