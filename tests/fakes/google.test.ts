// The local Google fake is strict where Google is: the e2e sign-in only passes if the app sends the
// right client id, secret, code and redirect_uri.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGoogle, type FakeGoogle } from "./google";

let google: FakeGoogle;
const clientId = "test-client";
const clientSecret = "test-secret";
const redirectUri = "http://localhost:9/api/auth/google/callback";

beforeAll(async () => {
  google = await startFakeGoogle({ clientId, clientSecret });
});
afterAll(() => google.close());

async function approve(email = "ada@example.com", name = "Ada Lovelace") {
  const res = await fetch(`${google.url}/o/oauth2/v2/approve`, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      state: "st-1",
      scope: "openid",
      email,
      name,
      decision: "allow",
    }),
  });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("Location")!);
  return location;
}

const exchange = (fields: Record<string, string>) =>
  fetch(`${google.url}/token`, { method: "POST", body: new URLSearchParams(fields) });

describe("the Google fake", () => {
  it("shows the account chooser only to the known client", async () => {
    const ok = await fetch(
      `${google.url}/o/oauth2/v2/auth?client_id=${clientId}&response_type=code&redirect_uri=${encodeURIComponent(redirectUri)}&state=s`,
    );
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain("Choose an account");
    expect(html).toContain('name="state" value="s"');
    const wrong = await fetch(
      `${google.url}/o/oauth2/v2/auth?client_id=other&response_type=code&redirect_uri=${encodeURIComponent(redirectUri)}`,
    );
    expect(wrong.status).toBe(400);
  });

  it("redirects back with a code and the same state, exchanges it once, and serves the profile", async () => {
    const back = await approve("grace@example.com", "Grace Brewster Hopper");
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get("state")).toBe("st-1");
    const code = back.searchParams.get("code")!;

    const base = {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      client_secret: clientSecret,
    };
    expect((await exchange({ ...base, client_secret: "wrong" })).status).toBe(401);
    expect((await exchange({ ...base, redirect_uri: "http://elsewhere/cb" })).status).toBe(400);
    const res = await exchange(base);
    expect(res.status).toBe(200);
    const { access_token, token_type } = (await res.json()) as { access_token: string; token_type: string };
    expect(token_type).toBe("Bearer");
    expect((await exchange(base)).status).toBe(400);

    const me = await fetch(`${google.url}/oauth2/v3/userinfo`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(await me.json()).toEqual({
      sub: expect.stringMatching(/^\d{21}$/),
      name: "Grace Brewster Hopper",
      given_name: "Grace",
      family_name: "Brewster Hopper",
      picture: expect.stringMatching(new RegExp(`^${google.url}/avatar/\\d+\\.svg$`)),
      email: "grace@example.com",
      email_verified: true,
    });
    expect(
      (await fetch(`${google.url}/oauth2/v3/userinfo`, { headers: { Authorization: "Bearer nope" } })).status,
    ).toBe(401);
  });

  it("Cancel comes back with error=access_denied", async () => {
    const res = await fetch(`${google.url}/o/oauth2/v2/approve`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, state: "s2", decision: "deny" }),
    });
    const location = new URL(res.headers.get("Location")!);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("s2");
    expect(location.searchParams.has("code")).toBe(false);
  });
});
