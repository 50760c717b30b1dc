// @engines sqlite postgres
// A new install's sign-ups at the same moment: each finds no account yet, so each may make the
// owner's; while sign-up is closed (the default) only one account may come of it. Route modules
// with real Requests and a real migrated database that starts empty.
import { describe, expect, it } from "vitest";
import { useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const authLocal = await import("~/routes/auth-local");
const users = await import("~/services/users.server");
const { SIGN_UP_CLOSED } = await import("~/services/sign-up.server");

describe("a new install's first sign-ups at once", () => {
  it("make one account, the owner's; the others are refused as sign-up closed and leave nothing behind", async () => {
    const signUp = (i: number) =>
      authLocal.action({
        ...args(
          makeRequest("/auth/local", {
            method: "POST",
            json: { name: `Person ${i}`, email: `person${i}@race.example`, password: `race-passphrase-kettle-${i}` },
          }),
        ),
        context: { clientIp: `10.7.0.${i}` },
      }) as Promise<Response>;
    const answers = await Promise.all([1, 2, 3, 4].map(signUp));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([302, 403, 403, 403]);
    const refused = answers.find((a) => a.status === 403)!;
    expect(await refused.json()).toMatchObject({ error: { code: "forbidden", message: SIGN_UP_CLOSED } });
    expect(await users.listUsers()).toHaveLength(1);
  });
});
