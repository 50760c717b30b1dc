// Sign-in (Google against the local fake, and local), the login page, /auth/callback, the guards,
// the session check's 401 and identity handling, and logout.
import type { Page } from "@playwright/test";
import { E2E_PASSWORD, expect, signIn, test, uniqueEmail, LOCAL_SIGN_IN_BUTTON } from "./fixtures";

const TOKEN_KEY = "crm_auth_token";
const readStoredToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);

/** The id in a token's payload (the signature is not checked here). */
function tokenId(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as { id: string };
  return payload.id;
}

test.describe("the login page", () => {
  test("shows the welcome, the subtitle, the Google button, the local sign-in and the terms", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome to Campaign CRM" })).toBeVisible();
    await expect(page.getByText("Sign in to access your customer relationship management dashboard")).toBeVisible();
    const google = page.getByRole("link", { name: "Sign in with Google" });
    await expect(google).toHaveAttribute("href", "/api/auth/google");
    await expect(page.getByRole("heading", { name: "Local sign-in" })).toBeVisible();
    // This server opens sign-up to anyone (SIGN_UP=open), and says so.
    await expect(page.getByText(/Anyone may create an account here/)).toBeVisible();
    await expect(page.getByText(/a new e-mail creates one with the name and password you enter/)).toBeVisible();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");
    await expect(page.getByText("By signing in, you agree to our Terms of Service and Privacy Policy.")).toBeVisible();
    await expect(page).toHaveTitle(/Sign in/);
  });

  for (const [error, message] of [
    ["session_expired", "Session expired. Please sign in again."],
    ["access_denied", "Access denied - possible tenant isolation issue. Please sign in again."],
    ["tenant_isolation_error", "Authentication error: User context mismatch. Please sign in again."],
  ] as const) {
    test(`explains ?error=${error}`, async ({ page }) => {
      await page.goto(`/login?error=${error}`);
      await expect(page.getByRole("alert")).toHaveText(message);
    });
  }

  test("the local form refuses a bad e-mail with a field message and keeps the name", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("Priya Sharma");
    await page.getByLabel("E-mail", { exact: true }).fill("not-an-email");
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Priya Sharma");
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("Google sign-in (against the local fake)", () => {
  test("button → consent → callback → dashboard, with the token stored and the welcome notification", async ({
    page,
  }) => {
    const email = uniqueEmail("google");
    await page.goto("/login");
    await page.getByRole("link", { name: "Sign in with Google" }).click();

    // The fake's "Choose an account" page, reached by a real browser redirect.
    await expect(page.getByRole("heading", { name: "Choose an account" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/o/oauth2/v2/auth");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name").fill("Grace Hopper");
    // The callback page moves on to the dashboard after a second: catch its address as it arrives
    // (checked afterwards, a slow machine can already be past it).
    // The token is handed over in a one-time cookie: the address never carries it.
    const callback = page.waitForURL(/\/auth\/callback\?auth=success$/, { waitUntil: "commit" });
    await page.getByRole("button", { name: "Continue" }).click();
    await callback;

    await expect(page.getByText("Login successful! Redirecting...")).toBeVisible();
    await expect(page.getByText("Welcome back!")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);

    const token = await readStoredToken(page);
    expect(token?.split(".")).toHaveLength(3);

    // The account was created from Google's userinfo: names, e-mail and picture.
    await expect(page.getByTestId("welcome")).toHaveText("Welcome, Grace Hopper!");
    await page.getByRole("button", { name: "Account menu" }).click();
    await expect(page.getByRole("menu").getByText(email)).toBeVisible();
    await expect(page.getByRole("button", { name: "Account menu" }).locator("img")).toHaveAttribute(
      "src",
      /\/avatar\/\d+\.svg$/,
    );
    await page.keyboard.press("Escape");

    // The API agrees about who this is, by token.
    const me = await page.request.get("/api/auth/current_user", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    const body = (await me.json()) as {
      isAuthenticated: boolean;
      user: { email: string; firstName: string; lastName: string; _id: string };
    };
    expect(body).toMatchObject({ isAuthenticated: true, user: { email, firstName: "Grace", lastName: "Hopper" } });
    expect(me.headers()["x-user-id"]).toBe(body.user._id);
    expect(tokenId(token!)).toBe(body.user._id);

    // First sign-in: a SYSTEM notification welcomes the user.
    await expect(page.getByTestId("notification-badge")).toHaveText("1");
    await page.getByRole("button", { name: /^Notifications/ }).click();
    await expect(page.getByTestId("notification-menu").getByText("Welcome to the CRM")).toBeVisible();
  });

  test("signing in again with the same Google account reuses it (no second welcome)", async ({ page }) => {
    const email = uniqueEmail("google-again");
    for (let round = 0; round < 2; round += 1) {
      await page.goto("/login");
      await page.getByRole("link", { name: "Sign in with Google" }).click();
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Name").fill("Linus Pauling");
      await page.getByRole("button", { name: "Continue" }).click();
      // Google's redirect, the callback page's one-second pause and the dashboard's first load in a
      // row: on two busy cores in the full suite that took just over the default 10 s twice.
      await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 20_000 });
      if (round === 0) {
        await page.getByRole("button", { name: "Account menu" }).click();
        await page.getByRole("menuitem", { name: "Logout" }).click();
        await expect(page.getByRole("heading", { name: "Welcome to Campaign CRM" })).toBeVisible();
      }
    }
    await expect(page.getByTestId("notification-badge")).toHaveText("1");
  });

  test("cancelling at Google comes back to /login with access_denied", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Sign in with Google" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/login\?error=access_denied$/);
    await expect(page.getByRole("alert")).toHaveText(
      "Access denied - possible tenant isolation issue. Please sign in again.",
    );
  });

  test("a forged callback (no state, made-up code) does not sign anyone in", async ({ page }) => {
    await page.goto("/api/auth/google/callback?code=4/made-up&state=whatever");
    await expect(page).toHaveURL(/\/login\?error=access_denied$/);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("local sign-in and the guards", () => {
  test("local sign-in opens the shell; the same e-mail later reuses the account", async ({ page }) => {
    const { email } = await signIn(page, { name: "Meera Nair" });
    await expect(page.getByTestId("welcome")).toHaveText("Welcome, Meera Nair!");
    expect((await readStoredToken(page))?.split(".")).toHaveLength(3);
    await page.context().clearCookies();
    await signIn(page, { name: "Someone Else", email });
    await expect(page.getByTestId("welcome")).toHaveText("Welcome, Meera Nair!");
  });

  test("signed-out visitors are sent to /login from every protected route", async ({ page }) => {
    for (const path of ["/", "/dashboard", "/profile", "/notifications", "/no/such/page"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
    await expect(page.getByRole("heading", { name: "Welcome to Campaign CRM" })).toBeVisible();
  });

  test("a signed-in visitor at /login goes to /, and an unknown path goes to /", async ({ page }) => {
    await signIn(page);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Welcome back!")).toBeVisible();
    await page.goto("/this/path/does-not-exist");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Welcome back!")).toBeVisible();
  });
});

test.describe("/auth/callback", () => {
  test("success: stores the token, says so, and lands on /dashboard after a second", async ({ page }) => {
    await signIn(page);
    const token = (await readStoredToken(page))!;
    await page.evaluate((key) => localStorage.removeItem(key), TOKEN_KEY);
    await page.goto(`/auth/callback?token=${encodeURIComponent(token)}&auth=success`);
    await expect(page.getByText("Login successful! Redirecting...")).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Welcome back!")).toBeVisible();
    expect(await readStoredToken(page)).toBe(token);
  });

  test("failure: no token", async ({ page }) => {
    await page.goto("/auth/callback?auth=success");
    await expect(page.getByRole("heading", { name: "Login failed" })).toBeVisible();
    await expect(page.getByText("Error: No authentication token received")).toBeVisible();
    expect(await readStoredToken(page)).toBeNull();
  });

  test("failure: auth is not success", async ({ page }) => {
    await page.goto("/auth/callback?token=a.b.c&auth=failed");
    await expect(page.getByRole("heading", { name: "Login failed" })).toBeVisible();
    await expect(page.getByText("Error: Authentication was not successful")).toBeVisible();
    expect(await readStoredToken(page)).toBeNull();
    await page.getByRole("link", { name: "Back to sign in" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("the session check", () => {
  test("a forged token gets a 401: signed out to /login?error=session_expired", async ({ page }) => {
    await signIn(page);
    const token = (await readStoredToken(page))!;
    const [header, payload] = token.split(".");
    const forged = `${header}.${payload}.${Buffer.from("not the real signature").toString("base64url")}`;
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, forged] as const);
    await page.reload();
    await expect(page).toHaveURL(/\/login\?error=session_expired$/);
    await expect(page.getByRole("alert")).toHaveText("Session expired. Please sign in again.");
    expect(await readStoredToken(page)).toBeNull();
    // The cookie session ended too.
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a token of another user than the page's: signed out with tenant_isolation_error", async ({ page, browser }) => {
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage);
    const otherToken = (await readStoredToken(otherPage))!;
    await other.close();

    await signIn(page);
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, otherToken] as const);
    await page.reload();
    await expect(page).toHaveURL(/\/login\?error=tenant_isolation_error$/);
    await expect(page.getByRole("alert")).toHaveText(
      "Authentication error: User context mismatch. Please sign in again.",
    );
  });

  test("re-checks every 5 minutes: a network failure keeps the token, a 401 then signs out", async ({ page }) => {
    await signIn(page);
    const token = (await readStoredToken(page))!;
    await page.clock.install();
    // The check the page runs as it opens must be over before the network is cut.
    const firstCheck = page.waitForResponse((r) => r.url().includes("/api/auth/current_user"));
    await page.reload();
    await expect(page.getByText("Welcome back!")).toBeVisible();
    expect((await firstCheck).status()).toBe(200);

    // The next check cannot reach the server: a toast, and the token stays.
    await page.route("**/api/auth/current_user*", (route) => route.abort("internetdisconnected"));
    await page.clock.fastForward("05:01");
    await expect(
      page.getByText("Network connection issue. Please check your internet connection.").first(),
    ).toBeVisible();
    expect(await readStoredToken(page)).toBe(token);
    await expect(page).toHaveURL(/\/dashboard$/);

    // The server is back but the token no longer verifies: the check after that signs out.
    await page.unroute("**/api/auth/current_user*");
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
      TOKEN_KEY,
      `${token.slice(0, -4)}AAAA`,
    ] as const);
    await page.clock.fastForward("05:01");
    await expect(page).toHaveURL(/\/login\?error=session_expired$/);
  });

  test("the dashboard saves a token handed over in its address and strips the auth parameters", async ({ page }) => {
    await signIn(page);
    const token = (await readStoredToken(page))!;
    await page.evaluate((key) => localStorage.removeItem(key), TOKEN_KEY);
    await page.goto(`/dashboard?token=${encodeURIComponent(token)}&auth=success&t=123&user=someone&keep=1`);
    await expect(page).toHaveURL(/\/dashboard\?keep=1$/);
    await expect(page.getByText("Welcome back!")).toBeVisible();
    expect(await readStoredToken(page)).toBe(token);
  });

  test("the /api answers 401 JSON to a forged bearer token", async ({ request }) => {
    const res = await request.get("/api/auth/current_user", { headers: { Authorization: "Bearer a.b.c" } });
    expect(res.status()).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
  });
});

test("logout from the avatar menu: toast, /login, token and session gone", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByText("Logged out successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await readStoredToken(page)).toBeNull();
  await page.goto("/notifications");
  await expect(page).toHaveURL(/\/login$/);
});

test("local sign-in works without JavaScript (the callback offers a link)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Name", { exact: true }).fill("No Script");
  await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("nojs"));
  await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
  await expect(page.getByText("Processing login...")).toBeVisible();
  await page.getByRole("link", { name: "Continue to the dashboard" }).click();
  await expect(page.getByText("Welcome back!")).toBeVisible();
  await expect(page.getByTestId("welcome")).toHaveText("Welcome, No Script!");
  await context.close();
});

test.describe("local accounts have passwords", () => {
  test("sign-up, then sign-in with the password; a wrong password says so and stays on /login", async ({ page }) => {
    const { email } = await signIn(page, { name: "Pass Holder", password: "my own long passphrase" });
    await page.context().clearCookies();

    await page.goto("/login");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("not my passphrase at all");
    const answer = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/login"),
    );
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    expect((await answer).status()).toBe(401);
    await expect(page.getByText("Wrong password for this e-mail. Check it and try again.")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(email);

    await page.getByLabel("Password", { exact: true }).fill("my own long passphrase");
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("welcome")).toHaveText("Welcome, Pass Holder!");
  });

  test("a sign-up with a common or short password is refused under the field", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("Weak Choice");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("weak"));
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await expect(
      page.getByText(
        "This password is easy to guess. Use three or four unrelated words, or a password from a password manager",
      ),
    ).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await expect(page.getByText("Use at least 10 characters")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("without JavaScript a wrong password is a real 401 page with the message", async ({ browser }) => {
    const setup = await browser.newPage();
    const { email } = await signIn(setup, { name: "No Script Owner" });
    await setup.close();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("definitely the wrong one");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click(),
    ]);
    expect(response.status()).toBe(401);
    await expect(page.getByText("Wrong password for this e-mail. Check it and try again.")).toBeVisible();
    await context.close();
  });

  test("logout ends the session on the server: the old cookie replayed is refused", async ({ page, context }) => {
    await signIn(page);
    const before = await context.cookies();
    const session = before.find((c) => c.name === "__crm_session");
    expect(session).toBeTruthy();
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);

    // Someone kept a copy of the cookie and puts it back: in a tab of their own, not on this /login
    // page, whose session watcher would see the replayed cookie refused and drop it first.
    await page.goto("about:blank");
    await context.addCookies([session!]);
    const api = await page.request.get("/api/auth/current_user");
    expect(api.status()).toBe(401);
    expect(await api.json()).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?error=session_expired$/);
    await expect(page.getByRole("heading", { name: "Welcome to Campaign CRM" })).toBeVisible();
  });
});

test("logout on another device: the next click here goes to /login with 'Session expired'", async ({
  page,
  browser,
}) => {
  const { email } = await signIn(page, { name: "Two Devices" });
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, { email });
  await otherPage.getByRole("button", { name: "Account menu" }).click();
  await otherPage.getByRole("menuitem", { name: "Logout" }).click();
  await expect(otherPage).toHaveURL(/\/login$/);
  await other.close();

  // This page still shows the dashboard; its next navigation finds the session ended.
  await page.getByRole("link", { name: "Customers" }).first().click();
  await expect(page).toHaveURL(/\/login\?error=session_expired$/);
  // The page's own message (the sign-in's welcome snackbar may still be showing above it).
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Session expired. Please sign in again.");
});

test("a GET of either sign-out address signs nobody out (405)", async ({ page }) => {
  await signIn(page);
  const api = await page.request.get("/api/auth/logout");
  expect(api.status()).toBe(405);
  expect(api.headers()["allow"]).toBe("POST");
  expect(await api.json()).toEqual({ error: { code: "method_not_allowed", message: "Use POST for /api/auth/logout" } });
  const signout = await page.request.get("/auth/signout?error=session_expired", { maxRedirects: 0 });
  expect(signout.status()).toBe(405);
  await page.goto("/customers");
  await expect(page).toHaveURL(/\/customers$/);
});

test("Google sign-in does not open a local account that claims the same e-mail", async ({ page }) => {
  const email = uniqueEmail("claimed");
  await signIn(page, { name: "Local Claimer", email });
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByRole("link", { name: "Sign in with Google" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Name").fill("Real Owner");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/login\?error=email_not_verified$/);
  await expect(page.getByRole("alert")).toHaveText(
    "An account with this e-mail already exists, but its address was never verified, so Google sign-in cannot open it. Sign in to that account with its password instead.",
  );
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});
