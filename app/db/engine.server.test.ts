import { afterEach, describe, expect, it, vi } from "vitest";

const engine = vi.hoisted(() => ({ current: "sqlite" as "sqlite" | "postgres" }));
vi.mock("~/db/connection.server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("~/db/connection.server")>()),
  databaseEngine: () => engine.current,
}));

const { engineDoor, postgresOf, sqliteOf } = await import("~/db/engine.server");

type Greeter = { greet(name: string): string; count(): Promise<number> };

describe("engineDoor", () => {
  afterEach(() => {
    engine.current = "sqlite";
  });

  it("runs the implementation of the engine named when the function is called", async () => {
    const door = engineDoor<Greeter>({
      sqlite: { greet: (name) => `sqlite ${name}`, count: async () => 1 },
      postgres: { greet: (name) => `postgres ${name}`, count: async () => 2 },
    });
    expect(door.greet("Asha")).toBe("sqlite Asha");
    expect(await door.count()).toBe(1);
    engine.current = "postgres";
    expect(door.greet("Asha")).toBe("postgres Asha");
    expect(await door.count()).toBe(2);
    expect(Object.keys(door).sort()).toEqual(["count", "greet"]);
  });

  it("refuses a connection of the other engine with what went wrong", () => {
    const pool = { engine: "postgres" } as unknown as Parameters<typeof sqliteOf>[0];
    expect(() => sqliteOf(pool)).toThrow("A PostgreSQL connection reached SQLite's implementation.");
    expect(postgresOf(pool)).toBe(pool);
  });
});
