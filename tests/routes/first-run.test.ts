// @engines sqlite postgres
// A new install, as a newcomer meets it: the sign-in page makes the first account (the owner's),
// sign-up closes after it (SIGN_UP), the owner adds people on /users with a one-time link that sets
// a password once, a browser's sign-in keeps its token out of the address, and the loopback
// spellings of a local run's address are all its own. Route modules with real Requests and a real
// migrated database that starts empty.
import { afterEach, describe, expect, it } from "vitest";
import { useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, cookieFor, formRequest, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const login = await import("~/routes/login");
const authLocal = await import("~/routes/auth-local");
const callback = await import("~/routes/auth-callback");
const usersPage = await import("~/routes/users");
const setPassword = await import("~/routes/set-password");
const layout = await import("~/routes/app-layout");
const customers = await import("~/routes/api/customers");
const { resetEnvCache } = await import("~/env.server");
const { SIGN_UP_CLOSED } = await import("~/services/sign-up.server");
const { LINK_ENDED } = await import("~/lib/password-link");
const users = await import("~/services/users.server");

type Reply = { data: { error?: Record<string, string[] | null> }; init?: { status?: number } };
type LoginData = {
  firstAccount: boolean;
  signUpOpen: boolean;
  useAddress: { opened: string; publicUrl: string } | null;
};
type LinkData = { data: { link: { person: string; url: string } } };

const PASSWORD = "kettle-morning-vivid-42";
let ip = 0;
/** Each call from an address of its own, so the sign-in rate limit never decides a test. */
const from = (request: Request) => ({ ...args(request), context: { clientIp: `10.9.0.${(ip += 1)}` } });
const postLogin = async (fields: Record<string, string>) =>
  (await login.action(from(formRequest("/login", fields)))) as unknown as Reply | Response;
const loginPage = async (url = "http://localhost:3000/login", headers: Record<string, string> = {}) =>
  (await login.loader(args(new Request(url, { headers })))) as LoginData;
const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]);

afterEach(() => {
  delete process.env.SIGN_UP;
  delete process.env.PUBLIC_URL;
  resetEnvCache();
});

describe("a new install", () => {
  it("offers to create the owner's account, and the first sign-up lands on the callback with a clean address", async () => {
    expect(await loginPage()).toMatchObject({ firstAccount: true, signUpOpen: true, useAddress: null });

    const res = (await postLogin({ name: "Meera Nair", email: "meera@shop.example", password: PASSWORD })) as Response;
    expect(res.status).toBe(302);
    // The token never travels in the address: a one-time httpOnly cookie scoped to the callback.
    expect(res.headers.get("Location")).toBe("/auth/callback?auth=success");
    const setCookies = res.headers.getSetCookie();
    const handoff = setCookies.find((c) => c.startsWith("__crm_handoff="));
    expect(handoff).toMatch(/HttpOnly/i);
    expect(handoff).toMatch(/Path=\/auth;/i);
    const [session, handed] = cookiesOf(res);

    // The callback's loader gives the page the token once and clears the cookie.
    const page = (await callback.loader(
      args(makeRequest("/auth/callback?auth=success", { headers: { Cookie: `${session}; ${handed}` } })),
    )) as unknown as { data: { handedOff: string | null }; init: { headers: Record<string, string> } };
    expect(page.data.handedOff).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(page.init.headers["Set-Cookie"]).toMatch(/^__crm_handoff=;.*Max-Age=0/i);
    // The token is a working bearer token for the new account.
    const list = (await customers.loader(
      args(makeRequest("/api/customers", { auth: { bearer: page.data.handedOff! } })),
    )) as Response;
    expect(list.status).toBe(200);

    // The session opened with it reaches the shell, as the owner.
    const shell = (await layout.loader(args(makeRequest("/", { auth: { cookie: session } })))) as { owner: boolean };
    expect(shell.owner).toBe(true);
    expect(await loginPage()).toMatchObject({ firstAccount: false, signUpOpen: false });
  });

  it("after the owner, a new e-mail cannot sign up (403 on the page and on /auth/local) until SIGN_UP=open", async () => {
    const refused = (await postLogin({ name: "Ravi", email: "ravi@elsewhere.example", password: PASSWORD })) as Reply;
    expect(refused.init?.status).toBe(403);
    expect(refused.data.error?.email).toEqual([SIGN_UP_CLOSED]);
    const api = (await authLocal.action(
      from(
        makeRequest("/auth/local", {
          method: "POST",
          json: { name: "Ravi", email: "ravi@x.example", password: PASSWORD },
        }),
      ),
    )) as Response;
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({ error: { code: "forbidden", message: SIGN_UP_CLOSED } });
    expect(await users.findUserByEmail("ravi@elsewhere.example")).toBeNull();

    process.env.SIGN_UP = "open";
    resetEnvCache();
    expect(await loginPage()).toMatchObject({ firstAccount: false, signUpOpen: true });
    const opened = (await postLogin({ name: "Ravi", email: "ravi@elsewhere.example", password: PASSWORD })) as Response;
    expect(opened.status).toBe(302);
    // A program's sign-in keeps the specification's token in the Location.
    const program = (await authLocal.action(
      from(
        makeRequest("/auth/local", { method: "POST", json: { email: "ravi@elsewhere.example", password: PASSWORD } }),
      ),
    )) as Response;
    expect(program.headers.get("Location")).toMatch(/^\/auth\/callback\?token=[^&]+&auth=success$/);
  });

  it("a Google sign-in of an e-mail nobody added is refused while sign-up is closed", async () => {
    const { SignUpClosed } = await import("~/services/sign-up.server");
    await expect(
      users.upsertGoogleUser({
        googleId: "g-stranger",
        email: "stranger@gmail.example",
        emailVerified: true,
        displayName: "S",
      }),
    ).rejects.toBeInstanceOf(SignUpClosed);
    expect(await users.findUserByEmail("stranger@gmail.example")).toBeNull();
  });
});

describe("the owner's Users screen", () => {
  it("lists the accounts, adds a person with a one-time link that sets a password once, and is a 404 to anyone else", async () => {
    const owner = (await users.findUserByEmail("meera@shop.example"))!;
    const ownerCookie = await cookieFor(owner.id);
    const listed = (await usersPage.loader(args(makeRequest("/users", { auth: { cookie: ownerCookie } })))) as {
      people: { email: string; owner: boolean }[];
    };
    expect(listed.people[0]).toMatchObject({ email: "meera@shop.example", owner: true });

    const added = (await usersPage.action(
      args(
        formRequest(
          "/users",
          { intent: "add", name: "Anil Kumar", email: "Anil@Shop.example" },
          { cookie: ownerCookie },
        ),
      ),
    )) as unknown as LinkData;
    expect(added.data.link.person).toBe("Anil Kumar");
    const url = new URL(added.data.link.url);
    expect(url.origin).toBe("http://localhost:3000");
    const token = url.pathname.replace("/set-password/", "");
    const anil = (await users.findUserByEmail("anil@shop.example"))!;
    expect(anil.passwordHash).toBeNull();

    // The same e-mail again: refused under the field, nothing changed.
    const again = (await usersPage.action(
      args(formRequest("/users", { intent: "add", name: "Anil", email: "anil@shop.example" }, { cookie: ownerCookie })),
    )) as unknown as Reply;
    expect(again.init?.status).toBe(409);

    // Anyone but the owner: the screen does not exist.
    const anilCookie = await cookieFor(anil.id);
    await expect(usersPage.loader(args(makeRequest("/users", { auth: { cookie: anilCookie } })))).rejects.toMatchObject(
      {
        status: 404,
      },
    );
    await expect(
      usersPage.action(args(formRequest("/users", { intent: "link", userId: owner.id }, { cookie: anilCookie }))),
    ).rejects.toMatchObject({ status: 404 });

    // The link names the account, refuses a weak password, sets a good one and signs in.
    const shown = (await setPassword.loader(args(makeRequest(`/set-password/${token}`), { token }))) as unknown as {
      data: { name: string; email: string };
    };
    expect(shown.data).toEqual({ name: "Anil Kumar", email: "anil@shop.example" });
    const weak = (await setPassword.action(
      args(formRequest(`/set-password/${token}`, { password: "short" }), { token }),
    )) as unknown as Reply;
    expect(weak.init?.status).toBe(400);
    const set = (await setPassword.action(
      args(formRequest(`/set-password/${token}`, { password: PASSWORD }), { token }),
    )) as Response;
    expect(set.status).toBe(302);
    expect(set.headers.get("Location")).toBe("/auth/callback?auth=success");
    const signedIn = (await postLogin({ email: "anil@shop.example", password: PASSWORD })) as Response;
    expect(signedIn.status).toBe(302);

    // An account in use keeps its password: no link for it from the owner's screen.
    const inUse = await usersPage
      .action(args(formRequest("/users", { intent: "link", userId: anil.id }, { cookie: ownerCookie })))
      .then(
        () => null,
        (error: unknown) => error as Response,
      );
    expect(inUse?.status).toBe(409);
    expect(await inUse?.text()).toMatch(/^Anil Kumar already signs in\./);

    // Used once: the link is over, on the page and on a post.
    await expect(setPassword.loader(args(makeRequest(`/set-password/${token}`), { token }))).rejects.toMatchObject({
      status: 410,
    });
    const reused = (await setPassword.action(
      args(formRequest(`/set-password/${token}`, { password: "another-long-passphrase-9" }), { token }),
    )) as unknown as Reply;
    expect(reused.init?.status).toBe(410);
    expect(reused.data.error?.[""]).toEqual([LINK_ENDED]);
    // An altered token opens nothing.
    const altered = `${token.slice(0, -2)}AA`;
    await expect(
      setPassword.loader(args(makeRequest(`/set-password/${altered}`), { token: altered })),
    ).rejects.toMatchObject({ status: 410 });
  });

  it("a link posted twice at once sets the password once: the second is told the link has ended", async () => {
    const owner = (await users.findUserByEmail("meera@shop.example"))!;
    const ownerCookie = await cookieFor(owner.id);
    const added = (await usersPage.action(
      args(
        formRequest(
          "/users",
          { intent: "add", name: "Tara Singh", email: "tara@shop.example" },
          { cookie: ownerCookie },
        ),
      ),
    )) as unknown as LinkData;
    const token = new URL(added.data.link.url).pathname.replace("/set-password/", "");
    const post = (password: string) =>
      setPassword.action(args(formRequest(`/set-password/${token}`, { password }), { token })) as unknown as Promise<
        Reply | Response
      >;
    const outcomes = await Promise.all([post("first-long-passphrase-81"), post("second-long-passphrase-82")]);
    const statuses = outcomes.map((o) => (o instanceof Response ? o.status : o.init?.status)).sort();
    expect(statuses).toEqual([302, 410]);
  });
});

describe("the server's own address", () => {
  it("without PUBLIC_URL, localhost, 127.0.0.1 and [::1] on the port are all its own; another port is not", async () => {
    const { checkOrigin } = await import("~/services/auth.server");
    const post = (origin: string) =>
      new Request("http://127.0.0.1:3000/x", { method: "POST", headers: { Origin: origin } });
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"])
      expect(() => checkOrigin(post(origin)), origin).not.toThrow();
    expect(() => checkOrigin(post("http://127.0.0.1:3001"))).toThrow();
    expect(await loginPage("http://127.0.0.1:3000/login")).toMatchObject({ useAddress: null });
  });

  it("with PUBLIC_URL set, a page opened at another address says which one to use, and a form from there is refused with it", async () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    resetEnvCache();
    expect(await loginPage("http://127.0.0.1:3000/login")).toMatchObject({
      useAddress: { opened: "http://127.0.0.1:3000", publicUrl: "http://localhost:3000" },
    });
    const owner = (await users.findUserByEmail("meera@shop.example"))!;
    const refused = await usersPage
      .action(
        args(
          formRequest(
            "/users",
            { intent: "link", userId: owner.id },
            { cookie: await cookieFor(owner.id) },
            "http://127.0.0.1:3000",
          ),
        ),
      )
      .then(
        () => null,
        (error: unknown) => error as Response,
      );
    expect(refused?.status).toBe(403);
    expect(await refused?.text()).toBe(
      "This form was sent from another site (http://127.0.0.1:3000), so it was refused. This server's address is http://localhost:3000: open the page there and try again.",
    );
  });
});
