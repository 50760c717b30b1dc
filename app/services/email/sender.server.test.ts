// @engines sqlite postgres
// The sender of a tenant's campaign e-mail: MAIL_FROM's address, the tenant's name (company, else
// MAIL_FROM's display name, else the display name), on the read connection and on a worker's own.
import { afterEach, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// A worker thread's own connection (either engine).
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const workerConnection = useTestConnection();

import { resetEnvCache } from "~/env.server";
import { parseMailbox } from "~/env-values.server";
import { users } from "~/models/users/store.server";
import { headerSafe, senderOf } from "~/services/email/sender.server";

const setEnv = (values: Record<string, string | undefined>) => {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvCache();
};
afterEach(() => setEnv({ MAIL_FROM: undefined, MAIL_REPLY_TO: undefined }));

describe("senderOf", () => {
  it("names the company when the profile has one, with MAIL_FROM's address and MAIL_REPLY_TO", async () => {
    setEnv({ MAIL_FROM: "Newsletter <news@mail.example.com>", MAIL_REPLY_TO: "replies@example.com" });
    const user = await createTestUser("Asha Rao");
    await users.updateUser(user.id, { company: "Rao Textiles" });
    expect(await senderOf(user.id)).toEqual({
      name: "Rao Textiles",
      address: "news@mail.example.com",
      replyTo: "replies@example.com",
      postalAddress: "",
    });
  });

  it("carries MAIL_POSTAL_ADDRESS for the footer, on one line", async () => {
    setEnv({ MAIL_FROM: "news@example.com", MAIL_POSTAL_ADDRESS: "Lotus Crafts, 12 MG Road,\n  Bengaluru 560001" });
    try {
      const user = await createTestUser("Asha Rao");
      expect((await senderOf(user.id)).postalAddress).toBe("Lotus Crafts, 12 MG Road, Bengaluru 560001");
    } finally {
      setEnv({ MAIL_POSTAL_ADDRESS: undefined });
    }
  });

  it("falls back to MAIL_FROM's display name, then to the tenant's display name", async () => {
    const user = await createTestUser("Asha Rao");
    setEnv({ MAIL_FROM: '"Acme, Inc." <news@example.com>' });
    expect(await senderOf(user.id)).toEqual({
      name: "Acme, Inc.",
      address: "news@example.com",
      replyTo: null,
      postalAddress: "",
    });
    setEnv({ MAIL_FROM: "news@example.com" });
    expect(await senderOf(user.id)).toEqual({
      name: "Asha Rao",
      address: "news@example.com",
      replyTo: null,
      postalAddress: "",
    });
  });

  it("reads on a worker thread's own connection too, and keeps line breaks out of the name", async () => {
    setEnv({ MAIL_FROM: "news@example.com" });
    const user = await createTestUser("Asha Rao");
    await users.updateUser(user.id, { company: "Evil\r\nBcc: x@y" });
    expect(await senderOf(user.id, workerConnection())).toEqual({
      name: "Evil Bcc: x@y",
      address: "news@example.com",
      replyTo: null,
      postalAddress: "",
    });
  });

  it("without MAIL_FROM (the built-in vendor), the tenant's own address", async () => {
    const user = await createTestUser("Asha Rao");
    const sender = await senderOf(user.id);
    expect(sender.name).toBe("Asha Rao");
    expect(sender.address).toBe(user.email);
  });
});

describe("parseMailbox and headerSafe", () => {
  it("reads the forms MAIL_FROM is written in and refuses the rest", () => {
    expect(parseMailbox("CRM <news@example.com>")).toEqual({ name: "CRM", address: "news@example.com" });
    expect(parseMailbox(' "Rao \\"R\\" Ltd" <a@b.in> ')).toEqual({ name: 'Rao "R" Ltd', address: "a@b.in" });
    expect(parseMailbox("news@example.com")).toEqual({ name: "", address: "news@example.com" });
    expect(parseMailbox("<news@example.com>")).toEqual({ name: "", address: "news@example.com" });
    expect(parseMailbox("CRM")).toBeNull();
    expect(parseMailbox("a@b.in, c@d.in")).toBeNull();
    expect(parseMailbox("CRM <news@example.com>\r\nBcc: x@y.in")).toBeNull();
    expect(parseMailbox("C<R>M <news@example.com>")).toBeNull();
  });
  it("turns control characters into spaces", () => {
    expect(headerSafe(" Hello\r\nBcc: x@y\tthere ")).toBe("Hello Bcc: x@y there");
  });
});

describe("parseMailbox on a local relay's address", () => {
  it("takes a single-label host such as localhost, but no spaces", () => {
    expect(parseMailbox("CRM <crm@localhost>")).toEqual({ name: "CRM", address: "crm@localhost" });
    expect(parseMailbox("crm @localhost")).toBeNull();
  });
});
