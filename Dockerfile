# One container: the app with SQLite inside, data on the /data volume, migrations applied at start.
#   docker build -t crm .
#   docker run -p 3000:3000 -v crm-data:/data -e SESSION_SECRET=$(openssl rand -hex 32) \
#     -e GOOGLE_CLIENT_ID=… -e GOOGLE_CLIENT_SECRET=… -e PUBLIC_URL=https://crm.example.com crm
# CI has no Docker engine: scripts/container-check.mjs repeats these steps (same commands, ENV, user
# and CMD) in a temporary directory and checks the result. Change the two together.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
RUN groupadd --system crm && useradd --system --gid crm --home /app crm \
    && mkdir -p /data && chown crm:crm /data
COPY --from=build --chown=crm:crm /app /app
USER crm
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "build/node/server.mjs"]
