// @engines sqlite postgres
// Marketing consent on the customer page, through the route's loader and action with a real session
// and database (the form posts the same without JavaScript): the page reads the consent as the
// service does, a change by hand is recorded from the customer page and said in a toast,
// "unsubscribed" suppresses the address, a bad status or text is put under its input and changes
// nothing, and another user's customer is a 404.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { customerInput } from "../helpers/customer-input";
import { args, flashOf, formRequest, makeRequest } from "../helpers/requests";
import { replyOf as reply, thrown } from "../helpers/route-answers";
import { signedIn } from "../helpers/signed-in";

setUpTestDatabase();

const detailRoute = await import("~/routes/customers-detail");
const { createCustomer, getCustomer } = await import("~/services/customers.server");
const { resubscribe, suppressionOf } = await import("~/services/suppressions.server");

const customer = (userId: string, firstName = "Asha") => createCustomer(userId, customerInput({ firstName }));

/** The action's reply, with the form (intent) it answers: the page holds several. */
const replyOf = (res: unknown) => ({
  ...reply(res),
  intent: (res as { data: { initialValue?: { intent?: unknown } } }).data.initialValue?.intent,
});

const get = (cookie: string, path: string) => makeRequest(path, { auth: { cookie } });
const post = (cookie: string, path: string, fields: Record<string, string>) => formRequest(path, fields, { cookie });

describe("the customer page's consent", () => {
  it("shows the consent, records a change by hand and says so; unsubscribed suppresses the address", async () => {
    const { user, cookie } = await signedIn();
    const a = await customer(user.id);
    const here = `/customers/${a.id}`;
    const page = await detailRoute.loader(args(get(cookie, here), { id: a.id }));
    expect(page.customer.consent).toEqual({ status: "never_asked", at: null, source: "", text: "" });

    const given = await detailRoute.action(
      args(post(cookie, here, { intent: "consent", status: "subscribed", text: "  Yes to offers by e-mail  " }), {
        id: a.id,
      }),
    );
    expect((given as Response).headers.get("Location")).toBe(here);
    expect(await flashOf(given as Response)).toEqual({
      kind: "toast",
      type: "success",
      message: "Consent changed to Subscribed",
    });
    const shown = (await detailRoute.loader(args(get(cookie, here), { id: a.id }))).customer.consent;
    expect(shown).toMatchObject({ status: "subscribed", source: "Customer page", text: "Yes to offers by e-mail" });
    expect(Date.now() - Date.parse(shown.at!)).toBeLessThan(60_000);

    const withdrawn = await detailRoute.action(
      args(post(cookie, here, { intent: "consent", status: "unsubscribed", text: "" }), { id: a.id }),
    );
    expect((await flashOf(withdrawn as Response))?.message).toBe(
      `Consent changed to Unsubscribed: ${a.email} is on the suppression list and gets no campaign e-mail`,
    );
    expect((await getCustomer(user.id, a.id)).consent).toMatchObject({
      status: "unsubscribed",
      source: "Customer page",
      text: "",
    });
    const suppressed = await detailRoute.loader(args(get(cookie, here), { id: a.id }));
    expect(suppressed.suppression).toMatchObject({ reason: "manual" });

    // Subscribed again while the address is suppressed: recorded, with a warning that says what still stops mail.
    const again = await detailRoute.action(
      args(post(cookie, here, { intent: "consent", status: "subscribed" }), { id: a.id }),
    );
    expect(await flashOf(again as Response)).toEqual({
      kind: "toast",
      type: "warning",
      message: `Consent changed to Subscribed. ${a.email} is still on the suppression list: Resubscribe it to send it campaign e-mail`,
    });
    expect((await getCustomer(user.id, a.id)).consent.status).toBe("subscribed");
    await resubscribe(user.id, a.email);

    const forgotten = await detailRoute.action(
      args(post(cookie, here, { intent: "consent", status: "never_asked" }), { id: a.id }),
    );
    expect((await flashOf(forgotten as Response))?.message).toBe("Consent changed to Never asked");
    expect((await getCustomer(user.id, a.id)).consent.status).toBe("never_asked");
  });

  it("puts a bad status or text under its input and changes nothing", async () => {
    const { user, cookie } = await signedIn();
    const a = await customer(user.id);
    const here = `/customers/${a.id}`;
    const unknown = replyOf(
      await detailRoute.action(args(post(cookie, here, { intent: "consent", status: "maybe" }), { id: a.id })),
    );
    expect(unknown).toEqual({ status: 400, error: { status: ["Choose a consent status"] }, intent: "consent" });
    const long = replyOf(
      await detailRoute.action(
        args(post(cookie, here, { intent: "consent", status: "subscribed", text: "x".repeat(2001) }), { id: a.id }),
      ),
    );
    expect(long).toEqual({
      status: 400,
      error: { text: ["The text agreed to must be at most 2000 characters"] },
      intent: "consent",
    });
    expect((await getCustomer(user.id, a.id)).consent.status).toBe("never_asked");
    expect(await suppressionOf(user.id, a.email)).toBeNull();
  });

  it("does not reach another user's customer (404) and changes nothing there", async () => {
    const { cookie } = await signedIn();
    const other = await createTestUser("Someone Else");
    const theirs = await customer(other.id, "Zoya");
    const there = `/customers/${theirs.id}`;
    expect(
      await thrown(
        detailRoute.action(args(post(cookie, there, { intent: "consent", status: "unsubscribed" }), { id: theirs.id })),
      ),
    ).toEqual({ status: 404, message: "Failed to change consent: Customer not found" });
    expect((await getCustomer(other.id, theirs.id)).consent.status).toBe("never_asked");
    expect(await suppressionOf(other.id, theirs.email)).toBeNull();
  });
});
