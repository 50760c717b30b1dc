// @engines sqlite postgres
// Idempotency keys against a real database (SQLite, and PostgreSQL in the postgres project): a key
// does its work once per tenant, whoever comes at once; another request under it is refused; a
// failure gives it back; a key whose request died is taken over by one repeat only.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";
import { rejection } from "../../tests/helpers/promises";

setUpTestDatabase();

const { runOnce, requestFingerprint } = await import("~/services/idempotency.server");
const { ApiError } = await import("~/lib/api.server");
const { newId } = await import("~/lib/id");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let keys = 0;
function optionsFor(request: unknown, extra: { staleMs?: number; waitMs?: number; finished?: () => boolean } = {}) {
  keys += 1;
  return {
    key: `key-${keys}-${Date.now()}`,
    fingerprint: requestFingerprint(request),
    mismatch: "This Idempotency-Key was used for another request",
    busy: "The first request with this Idempotency-Key is still running",
    finished: extra.finished ?? (() => false),
    ...(extra.staleMs === undefined ? {} : { staleMs: extra.staleMs }),
    ...(extra.waitMs === undefined ? {} : { waitMs: extra.waitMs }),
  };
}

/** Work that counts its runs and makes the reserved id, after `ms`. */
function countedWork(ms = 0) {
  const calls: string[] = [];
  const work = async (reservedId: string) => {
    calls.push(reservedId);
    await sleep(ms);
    return reservedId;
  };
  return { calls, work };
}

describe("runOnce", () => {
  it("does the work once: a repeat answers the same id, marked replayed", async () => {
    const user = await createTestUser();
    const options = optionsFor({ name: "Spring sale" });
    const { calls, work } = countedWork();
    const first = await runOnce(user.id, options, work);
    const again = await runOnce(user.id, options, work);
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ id: first.id, replayed: true });
    expect(calls).toEqual([first.id]);
  });

  it("twelve requests with one key at once: one does the work, the rest wait and answer its id", async () => {
    const user = await createTestUser();
    const options = optionsFor({ name: "Launch" });
    const { calls, work } = countedWork(150);
    const answers = await Promise.all(Array.from({ length: 12 }, () => runOnce(user.id, options, work)));
    expect(calls).toHaveLength(1);
    expect(new Set(answers.map((a) => a.id))).toEqual(new Set([calls[0]]));
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
  });

  it("the same key is the tenant's own: another tenant's request under it does its own work", async () => {
    const [a, b] = [await createTestUser(), await createTestUser()];
    const options = optionsFor({ name: "Shared key" });
    const { calls, work } = countedWork();
    const ofA = await runOnce(a.id, options, work);
    const ofB = await runOnce(b.id, options, work);
    expect(ofB.replayed).toBe(false);
    expect(ofB.id).not.toBe(ofA.id);
    expect(calls).toHaveLength(2);
  });

  it("another request under a used key is refused with the mismatch message (422)", async () => {
    const user = await createTestUser();
    const options = optionsFor({ name: "One" });
    await runOnce(user.id, options, countedWork().work);
    const refused = await rejection(
      runOnce(user.id, { ...options, fingerprint: requestFingerprint({ name: "Two" }) }, countedWork().work),
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "unprocessable", message: options.mismatch });
  });

  it("a failure gives the key back: the next try does the work", async () => {
    const user = await createTestUser();
    const options = optionsFor({ name: "Flaky" });
    const failed = await rejection(
      runOnce(user.id, options, async () => {
        throw new Error("the relay was down");
      }),
    );
    expect((failed as Error).message).toBe("the relay was down");
    const { calls, work } = countedWork();
    const retried = await runOnce(user.id, options, work);
    expect(retried.replayed).toBe(false);
    expect(calls).toEqual([retried.id]);
  });

  it("a repeat that waits past its time while the first still runs is a 409 with the busy message", async () => {
    const user = await createTestUser();
    const options = optionsFor({ name: "Slow" }, { waitMs: 120 });
    let finish: (id: string) => void = () => undefined;
    const first = runOnce(user.id, options, () => new Promise<string>((resolve) => (finish = resolve)));
    await sleep(50);
    const busy = await rejection(runOnce(user.id, options, countedWork().work));
    expect(busy).toMatchObject({ code: "conflict", message: options.busy });
    finish(newId());
    await first;
  });

  it("a key whose request died is taken over by one of two repeats; the other answers its id", async () => {
    const user = await createTestUser();
    const options = optionsFor({ name: "Crashed" }, { staleMs: 300 });
    // The first request never finishes (its process died while it ran).
    let never: (id: string) => void = () => undefined;
    const dead = runOnce(user.id, options, () => new Promise<string>((resolve) => (never = resolve)));
    await sleep(450);
    const { calls, work } = countedWork(100);
    const [b, c] = await Promise.all([runOnce(user.id, options, work), runOnce(user.id, options, work)]);
    expect(calls).toHaveLength(1);
    expect(b.id).toBe(calls[0]);
    expect(c.id).toBe(calls[0]);
    expect([b.replayed, c.replayed].sort()).toEqual([false, true]);
    never(calls[0]);
    await dead;
  });
});
