// @engines sqlite postgres
// The sign-in rate limit against a real database (SQLite, and PostgreSQL in the postgres project):
// SIGN_IN_RATE_LIMIT attempts an address a minute, then the message; the window restarts after a
// minute; addresses are counted apart. On PostgreSQL the counters are rows every instance shares:
// two pools (two instances) counting one address at once see one count.
import { describe, expect, it } from "vitest";
import {
  TEST_ENGINE,
  useTestConnection as openTestConnection,
  useTestDatabase as setUpTestDatabase,
} from "../../tests/helpers/db";

setUpTestDatabase();
const connection = openTestConnection();
const otherInstance = openTestConnection();

const { checkSignInRate, TOO_MANY_SIGN_INS } = await import("~/services/rate-limit.server");
const { postgresOf } = await import("~/db/engine.server");
const { signInAttempts } = await import("~/models/sign-in-attempts/store.server");
const { db } = await import("~/db/prisma.server");

let addresses = 0;
const newAddress = () => `203.0.113.${(addresses += 1)}-${Date.now()}`;

describe("checkSignInRate", () => {
  it("lets `max` attempts of a minute through and refuses the next with the message", async () => {
    const address = newAddress();
    const now = Date.now();
    for (let i = 0; i < 3; i += 1) expect(await checkSignInRate(address, now + i, 3)).toBeNull();
    expect(await checkSignInRate(address, now + 3, 3)).toBe(TOO_MANY_SIGN_INS);
    expect(TOO_MANY_SIGN_INS).toBe("Too many sign-in attempts. Wait a minute and try again.");
    // Another address has its own count.
    expect(await checkSignInRate(newAddress(), now + 4, 3)).toBeNull();
  });

  it("starts a new window a minute after the first attempt of the last one", async () => {
    const address = newAddress();
    const start = Date.now();
    for (let i = 0; i < 3; i += 1) await checkSignInRate(address, start, 2);
    expect(await checkSignInRate(address, start + 60_000, 2)).toBe(TOO_MANY_SIGN_INS);
    expect(await checkSignInRate(address, start + 60_001, 2)).toBeNull();
    expect(await checkSignInRate(address, start + 60_002, 2)).toBeNull();
    expect(await checkSignInRate(address, start + 60_003, 2)).toBe(TOO_MANY_SIGN_INS);
  });

  it("counts every attempt of a burst at once: exactly `max` get through", async () => {
    const address = newAddress();
    const now = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => checkSignInRate(address, now, 10)));
    expect(answers.filter((a) => a === null)).toHaveLength(10);
    expect(answers.filter((a) => a === TOO_MANY_SIGN_INS)).toHaveLength(20);
  });
});

describe.runIf(TEST_ENGINE === "postgres")("on PostgreSQL the counters are shared by every instance", () => {
  it("two instances counting one address at once hand out each count once, 1 to 40", async () => {
    const [a, b] = [postgresOf(connection()), postgresOf(otherInstance())];
    expect(a.pool).not.toBe(b.pool);
    const address = newAddress();
    const now = Date.now();
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signInAttempts.countSignInAttempt(address, now, 60_000, i % 2 ? a : b)),
    );
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("an attempt on this instance counts against the attempts another made", async () => {
    const other = otherInstance();
    const address = newAddress();
    const now = Date.now();
    for (let i = 0; i < 5; i += 1) await signInAttempts.countSignInAttempt(address, now, 60_000, other);
    expect(await checkSignInRate(address, now, 5)).toBe(TOO_MANY_SIGN_INS);
  });

  it("the rows of ended windows are swept, the current ones kept", async () => {
    const pool = connection();
    const [old, current] = [newAddress(), newAddress()];
    // Far on, so this process's last sweep (at most once a window) is more than a window ago.
    const later = Date.now() + 10 * 60_000;
    await signInAttempts.countSignInAttempt(old, later - 120_000, 60_000, pool);
    await signInAttempts.countSignInAttempt(current, later - 1_000, 60_000, pool);
    await signInAttempts.countSignInAttempt(newAddress(), later, 60_000, pool);
    const keys = (await db().signInAttempt.findMany({ select: { key: true } })).map((r) => r.key);
    expect(keys).not.toContain(old);
    expect(keys).toContain(current);
  });
});
