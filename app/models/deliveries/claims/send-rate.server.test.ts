// The send rate's bucket on a real database of either engine (TEST_DATABASE_ENGINE): a second's
// worth at first, refilled at the rate, tokens given back kept to a second's worth; on PostgreSQL
// one bucket for every instance (each instance has a connection pool of its own), also when they
// take at the same moment.
import { describe, expect, it } from "vitest";
import { TEST_ENGINE, useTestConnection, useTestDatabase } from "../../../../tests/helpers/db";
import { closeConnection, openConnection } from "~/db/connection.server";
import { deliveryClaims } from "~/models/deliveries/claims/store.server";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();
const T = 1_800_000_000_000;
// The second test's clock, an hour on: the first test's bucket is full again by then.
const T2 = T + 3_600_000;

describe("a send rate's bucket", () => {
  it("holds a second's worth at first, refills at the rate, and keeps what is given back to a second's worth", async () => {
    const bucket = deliveryClaims.sendRateBucket(connection(), { channel: "simulated", perSecond: 100 });
    expect(await bucket.take(500, T)).toBe(100);
    expect(await bucket.take(500, T)).toBe(0);
    expect(await bucket.take(500, T + 250)).toBe(25);
    expect(await bucket.take(10, T + 1_000)).toBe(10); // 75 had come back; 65 left
    await bucket.giveBack(7, T + 1_000);
    expect(await bucket.take(500, T + 1_000)).toBe(72);
    // A clock behind the bucket's (another machine's) refills nothing.
    expect(await bucket.take(500, T + 500)).toBe(0);
    // Given back beyond a second's worth: a second's worth.
    await bucket.giveBack(1_000, T + 1_000);
    expect(await bucket.take(1_000, T + 1_000)).toBe(100);
    // Whole tokens only: half a token is not a message.
    expect(await bucket.take(10, T + 1_005)).toBe(0);
    expect(await bucket.take(10, T + 1_010)).toBe(1);
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "is one bucket for every instance on PostgreSQL: three instances taking at once never get more than the rate",
    async () => {
      const instances = [
        openConnection({ poolSize: 2 }),
        openConnection({ poolSize: 2 }),
        openConnection({ poolSize: 2 }),
      ];
      try {
        const rate = { channel: "smtp", perSecond: 300 };
        const buckets = instances.map((c) => deliveryClaims.sendRateBucket(c, rate));
        let granted = 0;
        // Ten rounds 100 ms apart: each instance asks for 100 at the same moment.
        for (let round = 0; round <= 10; round++) {
          const got = await Promise.all(buckets.map((b) => b.take(100, T2 + round * 100)));
          granted += got.reduce((a, b) => a + b, 0);
        }
        // A second's worth at first, then 30 a round for ten rounds: 600 in all, not 3 × 600.
        expect(granted).toBe(600);
        // Drained for all three; another channel's bucket is its own.
        expect(await buckets[1]!.take(100, T2 + 1_000)).toBe(0);
        expect(
          await deliveryClaims
            .sendRateBucket(instances[0]!, { channel: "simulated", perSecond: 300 })
            .take(1_000, T2 + 1_000),
        ).toBe(300);
      } finally {
        await Promise.all(instances.map((c) => closeConnection(c)));
      }
    },
  );
});
