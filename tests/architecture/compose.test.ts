// compose.yaml (README, "Running on PostgreSQL") read as Docker Compose reads it, without a Docker
// engine: its variables filled in (${VAR:?message} must be given, ${VAR:-default} falls back) and
// the YAML merge keys applied. Every CRM instance's environment must pass the server's own
// settings check (app/env.server.ts) and name the same PostgreSQL database and session secret,
// or the instances would not be one product.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { getEnv, resetEnvCache } from "~/env.server";

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
    const instances = Object.entries(services).filter(([, s]) => s.build === ".");
    expect(instances.length).toBeGreaterThanOrEqual(2);
    expect(existsSync(path.join(root, "Dockerfile"))).toBe(true);
    const ports = new Set<string>();
    for (const [name, service] of instances) {
      expect(service.depends_on?.db.condition, name).toBe("service_healthy");
      for (const p of service.ports ?? []) ports.add(p.split(":")[0]);
      const environment = service.environment ?? {};
      const saved = { ...process.env };
      try {
        for (const key of Object.keys(process.env)) if (!["PATH", "HOME"].includes(key)) delete process.env[key];
        Object.assign(process.env, environment, { DATA_DIR: path.join(scratch, name) });
        resetEnvCache();
        const env = getEnv();
        expect(env.databaseEngine, name).toBe("postgres");
        expect(env.databaseUrl).toBe("postgres://crm:secret-password@db:5432/crm");
        expect(env.sessionSecret).toBe(given.SESSION_SECRET);
        expect(env.publicUrl).toBe("https://crm.example.com");
      } finally {
        for (const key of Object.keys(process.env)) delete process.env[key];
        Object.assign(process.env, saved);
        resetEnvCache();
      }
    }
    // Each instance on a port of its own.
    expect(ports.size).toBe(instances.length);
  });
});
