// compose.yaml (docs/running.md, "Running on PostgreSQL") read as Docker Compose reads it, without a Docker
// engine: its variables filled in (${VAR:?message} must be given, ${VAR:-default} falls back) and
// the YAML merge keys applied. Every CRM instance's environment must pass the server's own
// settings check (app/env.server.ts) and name the same PostgreSQL database, session secret and
// PUBLIC_URL, or the instances would not be one product; and the one public port is nginx's, with
// deploy/nginx.conf, whose upstream is every instance and which tells them who the client is.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import proxyAddr from "proxy-addr";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { getEnv, resetEnvCache } from "~/env.server";
import { NGINX_CONFIG, balancerConfig, testBalancerConfig } from "../helpers/nginx";

const root = path.resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(path.join(tmpdir(), "crm-compose-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Service = {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
};

/** compose.yaml with `given` as the shell's variables, as `docker compose config` would read it. */
function composeWith(given: Record<string, string>): { services: Record<string, Service> } {
  const text = readFileSync(path.join(root, "compose.yaml"), "utf8");
  const filled = text.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    const value = given[name];
    if (value !== undefined && value !== "") return value;
    if (kind === "?") throw new Error(`compose.yaml: ${name}: ${rest}`);
    return kind === "-" ? (rest ?? "") : "";
  });
  return parse(filled, { merge: true }) as { services: Record<string, Service> };
}

describe("compose.yaml", () => {
  const given = {
    SESSION_SECRET: "c".repeat(64),
    POSTGRES_PASSWORD: "secret-password",
    PUBLIC_URL: "https://crm.example.com",
  };

  it("refuses to start without the secrets it must be given", () => {
    expect(() => composeWith({ ...given, SESSION_SECRET: "" })).toThrow(/SESSION_SECRET/);
    expect(() => composeWith({ ...given, POSTGRES_PASSWORD: "" })).toThrow(/POSTGRES_PASSWORD/);
  });

  it("runs PostgreSQL and at least two instances of this image on it, each passing the server's settings check", () => {
    const { services } = composeWith(given);
    expect(services.db.image).toMatch(/^postgres:\d+/);
    const instances = instancesOf(services);
    expect(instances.length).toBeGreaterThanOrEqual(2);
    expect(existsSync(path.join(root, "Dockerfile"))).toBe(true);
    for (const [name, service] of instances) {
      expect(service.depends_on?.db.condition, name).toBe("service_healthy");
      const env = settingsOf(name, service);
      expect(env.databaseEngine, name).toBe("postgres");
      expect(env.databaseUrl).toBe("postgres://crm:secret-password@db:5432/crm");
      expect(env.sessionSecret).toBe(given.SESSION_SECRET);
      expect(env.publicUrl).toBe("https://crm.example.com");
    }
  });

  it("has one public port, nginx's with deploy/nginx.conf; the instances publish none and are all in its upstream", () => {
    const { services } = composeWith(given);
    const published = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0);
    expect(published.map(([name]) => name)).toEqual(["balancer"]);
    const balancer = services.balancer;
    expect(balancer.image).toMatch(/^nginx:/);
    expect(balancer.ports).toEqual(["3000:80"]);
    expect(balancer.volumes).toContain("./deploy/nginx.conf:/etc/nginx/nginx.conf:ro");
    const instances = instancesOf(services);
    for (const [name] of instances) expect(balancer.depends_on?.[name]?.condition, name).toBe("service_healthy");
    // The upstream is exactly the instances, each on the port its server listens on.
    const config = readFileSync(NGINX_CONFIG, "utf8");
    const upstream = /upstream crm \{([^}]*)\}/.exec(config)?.[1] ?? "";
    const servers = [...upstream.matchAll(/^\s*server (\S+);/gm)].map((m) => m[1]);
    expect(servers.sort()).toEqual(instances.map(([name, s]) => `${name}:${settingsOf(name, s).PORT}`).sort());
    expect(config).toMatch(/^\s*listen 80;$/m);
    expect(config).toMatch(/^\s*proxy_pass http:\/\/crm;$/m);
    // The CSV imports' limit (512 MB) passes the balancer: the instances answer a larger body 413 themselves.
    expect(config).toMatch(/^\s*client_max_body_size 512m;$/m);
  });

  it("PUBLIC_URL defaults to the balancer's published address, the same for every instance", () => {
    const { services } = composeWith({ ...given, PUBLIC_URL: "" });
    const [published] = services.balancer.ports ?? [];
    for (const [name, service] of instancesOf(services))
      expect(settingsOf(name, service).publicUrl, name).toBe(`http://localhost:${published?.split(":")[0]}`);
    const moved = composeWith({ ...given, PUBLIC_URL: "", CRM_PORT: "8080" });
    expect(moved.services.balancer.ports).toEqual(["8080:80"]);
  });

  it("the balancer tells the instances who the client is, and they believe it from the compose network only", () => {
    const config = readFileSync(NGINX_CONFIG, "utf8");
    // The port too: a form's Origin is checked against PUBLIC_URL, and Remix builds the page's URL from these.
    expect(config).toMatch(/^\s*proxy_set_header Host \$http_host;$/m);
    expect(config).toMatch(/^\s*proxy_set_header X-Forwarded-Host \$http_host;$/m);
    expect(config).toMatch(/^\s*proxy_set_header X-Forwarded-Proto \$scheme;$/m);
    // The peer as nginx saw it, never a client's own X-Forwarded-For passed on.
    expect(config).toMatch(/^\s*proxy_set_header X-Forwarded-For \$remote_addr;$/m);
    const { services } = composeWith(given);
    for (const [name, service] of instancesOf(services)) {
      const trust = proxyAddr.compile(
        settingsOf(name, service)
          .TRUST_PROXY.split(",")
          .map((s) => s.trim()),
      );
      // Docker's networks for compose projects (172.17.0.0/16 onwards, then 192.168.x.0/20).
      for (const balancer of ["172.18.0.5", "172.29.0.2", "192.168.16.3", "10.0.3.7"])
        expect(trust(balancer, 0), `${name} trusts ${balancer}`).toBe(true);
      expect(trust("203.0.113.9", 0), name).toBe(false);
    }
  });

  it("nginx accepts deploy/nginx.conf (nginx -t, with loopback addresses for the instances' names)", () => {
    const dir = mkdtempSync(path.join(scratch, "nginx-"));
    expect(() =>
      testBalancerConfig(balancerConfig({ upstreams: ["127.0.0.1:3001", "127.0.0.1:3002"], port: 3000, dir })),
    ).not.toThrow();
    // And refuses a broken one, so the check above means something.
    expect(() =>
      testBalancerConfig(
        balancerConfig({ upstreams: ["127.0.0.1:3001"], port: 3000, dir }).replace("proxy_pass", "proxy_passs"),
      ),
    ).toThrow(/unknown directive/);
  });
});

function instancesOf(services: Record<string, Service>): [string, Service][] {
  return Object.entries(services).filter(([, s]) => s.build === ".");
}

/** The server's settings (app/env.server.ts) from a service's environment, and nothing else of this process's. */
function settingsOf(name: string, service: Service): ReturnType<typeof getEnv> {
  const saved = { ...process.env };
  try {
    for (const key of Object.keys(process.env)) if (!["PATH", "HOME"].includes(key)) delete process.env[key];
    Object.assign(process.env, service.environment ?? {}, { DATA_DIR: path.join(scratch, name) });
    resetEnvCache();
    return getEnv();
  } finally {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, saved);
    resetEnvCache();
  }
}
