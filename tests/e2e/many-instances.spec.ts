// Many instances on one PostgreSQL behind the load balancer of compose.yaml: three production
// servers, each a process group of its own with its own delivery job, share one database and one
// PUBLIC_URL, nginx's (Debian's nginx on deploy/nginx.conf, as the compose file runs it). A person
// signs in and posts forms through the balancer's one address, with JavaScript and without: the
// posts land on different instances and none is refused as another site's. Then the instances
// send a 20,000-recipient campaign through real SMTP servers together (one each, so the test sees
// that every instance sent). One is killed with SIGKILL in the middle. Afterwards every recipient
// has received the message, each with its one Message-ID, the messages received twice are no more
// than the killed instance had in flight (its SMTP pool), and the campaign's counters add up.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, expect, test } from "@playwright/test";
import pg from "pg";
import { deliveryId } from "../../app/lib/campaigns.ts";
import { type Balancer, reservePort, startBalancer } from "../helpers/nginx.ts";
import { createPostgresDatabase, type PostgresDatabase } from "../helpers/postgres.ts";
import { freePort, productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";
import { LOCAL_SIGN_IN_BUTTON } from "./fixtures.ts";

const RECIPIENTS = 20_000;
const INSTANCES = 3;
const POOL = 4;
const EMAIL = "instances@example.com";
const PASSWORD = "many instances behind one balancer";

type Counters = {
  status: string;
  pendingCount: number;
  sentCount: number;
  deliveredCount: number;
  failedCount: number;
  bouncedCount: number;
  audienceSize: number;
};

test.describe("three instances on one PostgreSQL", () => {
  test.setTimeout(420_000);
  let dataDir = "";
  let database: PostgresDatabase | undefined;
  let relays: SmtpCapture[] = [];
  let balancer: Balancer | undefined;
  const servers: ChildProcess[] = [];

  test.afterEach(async () => {
    await balancer?.stop();
    balancer = undefined;
    for (const server of servers.splice(0)) {
      try {
        if (server.pid) process.kill(-server.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    await Promise.all(relays.map((r) => r.close()));
    relays = [];
    await database?.drop();
    database = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("serve through one balancer and send together; a SIGKILL of one loses nothing", async ({ browser }) => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-instances-"));
    database = await createPostgresDatabase("crm_instances");
    relays = await Promise.all(Array.from({ length: INSTANCES }, () => startSmtpCapture()));
    const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
    // Every instance's PUBLIC_URL is the balancer's address, known before the balancer starts.
    const balancerPort = await reservePort();
    const publicUrl = `http://127.0.0.1:${balancerPort}`;
    const received = () => relays.flatMap((r) => r.messages);
    const envOf = (port: number, relay: SmtpCapture) =>
      productionServerEnv({
        port,
        publicUrl,
        dataDir,
        extra: {
          DATABASE_URL: database?.url ?? "",
          // One session secret for all: a token issued by one instance is good on every other.
          SESSION_SECRET: "many-instances-session-secret-0123456789abcdef",
          WEB_CONCURRENCY: "1",
          DATABASE_POOL_SIZE: "6",
          DELIVERY_LEASE_SECONDS: "5",
          DELIVERY_CHANNEL: "smtp",
          SMTP_URL: `smtp://127.0.0.1:${relay.port}`,
          SMTP_POOL: String(POOL),
          MAIL_FROM: "Many Instances <news@shop.example>",
          // For the three together (one bucket in the database): slow enough that the kill lands
          // while every instance has messages out.
          DELIVERY_RATE_PER_SECOND: "700",
        },
      });
    const env = envOf(ports[0], relays[0]);
    const cli = (argv: string[], input?: string) =>
      execFileSync(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], { cwd: root, env, input }).toString();
    cli(["db", "migrate"]);
    cli(["users", "create", "--email", EMAIL, "--name", "Many Instances", "--password"], `${PASSWORD}\n`);
    cli(["seed", "--user", EMAIL, "--customers", String(RECIPIENTS), "--seed", "7"]);
    const token = cli(["users", "token", EMAIL]).trim().split("\n").pop() ?? "";

    // Each in its own process group, so SIGKILL reaches its process and its job's thread at once.
    const start = (port: number, i: number) => {
      const server = spawn(serverCommand.file, serverCommand.args, {
        cwd: root,
        env: envOf(port, relays[i]),
        stdio: "ignore",
        detached: true,
      });
      servers.push(server);
      return server;
    };
    const instances = ports.map(start);
    const waitUp = async (port: number) => {
      for (let i = 0; i < 1200; i++) {
        try {
          if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
        } catch {
          /* not yet */
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the instance on port ${port} did not start`);
    };
    await Promise.all(ports.map(waitUp));
    balancer = await startBalancer(
      ports.map((port) => `127.0.0.1:${port}`),
      { port: balancerPort },
    );
    // The customers added through the forms are in the campaign's audience too.
    const audience = RECIPIENTS + (await formsThroughTheBalancer(browser, balancer));
    const api = async (port: number, pathname: string, init: RequestInit = {}) => {
      const r = await fetch(`http://127.0.0.1:${port}${pathname}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };

    // Made on one instance, read on the others.
    const segment = await api(ports[1], "/api/segments", {
      method: "POST",
      body: JSON.stringify({ name: "Everyone", conditions: { visits: { $gte: 0 } } }),
    });
    expect(segment.status).toBe(201);
    for (const port of ports) {
      const read = await api(port, `/api/segments/${String(segment.body._id)}`);
      expect(read.status).toBe(200);
    }
    const launched = await api(ports[2], "/api/campaigns", {
      method: "POST",
      body: JSON.stringify({
        name: "Many instances",
        subject: "Hi {NAME}",
        segmentId: segment.body._id,
        message: "Hello {NAME}, 10% off",
      }),
    });
    expect(launched.status).toBe(201);
    const id = launched.body.id as string;
    expect(launched.body.audienceSize).toBe(audience);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const counters = async () =>
        (
          await client.query<Counters>(
            `SELECT "status", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount", "audienceSize" FROM "Campaign" WHERE "id" = $1`,
            [id],
          )
        ).rows[0];
      // Kill one instance once a good part, but not all, has been handed over.
      for (let i = 0; i < 1200 && (await counters()).pendingCount > audience * 0.6; i++)
        await new Promise((r) => setTimeout(r, 50));
      const atKill = await counters();
      expect(atKill.pendingCount).toBeGreaterThan(0);
      // Every instance was sending.
      for (const relay of relays) expect(relay.messages.length).toBeGreaterThan(0);
      process.kill(-(instances[0].pid ?? 0), "SIGKILL");

      // The other two finish, taking the killed instance's leased rows once the lease runs out.
      let final = await counters();
      for (let i = 0; i < 3000 && (final.status !== "Completed" || final.sentCount > 0); i++) {
        await new Promise((r) => setTimeout(r, 100));
        final = await counters();
      }
      expect(final).toMatchObject({ status: "Completed", pendingCount: 0, sentCount: 0, audienceSize: audience });
      expect(final.deliveredCount + final.failedCount + final.bouncedCount).toBe(audience);
      expect(final.deliveredCount).toBe(audience);

      const rows = (
        await client.query<{ seq: number; status: string }>(
          `SELECT "seq", "status" FROM "Delivery" WHERE "campaignId" = $1`,
          [id],
        )
      ).rows;
      expect(rows).toHaveLength(audience);
      expect(rows.filter((r) => r.status !== "delivered")).toEqual([]);
      // Every recipient's message arrived, under its one Message-ID; the killed instance's messages
      // in flight (its pool) may have arrived twice, nothing else.
      const expected = new Set(rows.map((r) => `<${deliveryId(id, r.seq)}@shop.example>`));
      const ids = received().map((m) => m.messageId);
      const unique = new Set(ids);
      expect(unique).toEqual(expected);
      const duplicates = ids.length - unique.size;
      // Which relays each twice-received message reached: the killed instance's relay is 0.
      const where = new Map<string, number[]>();
      relays.forEach((r, i) =>
        r.messages.forEach((m) => where.set(m.messageId, [...(where.get(m.messageId) ?? []), i])),
      );
      const twice = [...where.values()].filter((at) => at.length > 1).map((at) => at.join("+"));
      expect(duplicates, `received twice, by relay: ${twice.join(", ")}`).toBeLessThanOrEqual(POOL);

      // The survivors still serve.
      for (const port of ports.slice(1)) {
        const read = await api(port, `/api/campaigns/${id}`);
        expect(read.status).toBe(200);
      }
      test.info().annotations.push({
        type: "instances",
        description: `pending at kill ${atKill.pendingCount}, received ${ids.length} (${relays.map((r) => r.messages.length).join(" + ")}), received twice ${duplicates}`,
      });
    } finally {
      await client.end();
    }
  });
});

/**
 * A person at the balancer's address: signs in, then adds customers with the page's form, in a
 * browser with JavaScript (Remix posts `.data`) and in one without (the form's own post). Every
 * post is answered by the instance nginx chose, and none is refused: the origin check holds for
 * the one PUBLIC_URL on every instance, and a session made by one is good on the others.
 */
async function formsThroughTheBalancer(browser: Browser, balancer: Balancer): Promise<number> {
  const added: string[] = [];
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ baseURL: balancer.url, javaScriptEnabled });
    const page = await context.newPage();
    try {
      await page.goto("/login");
      await page.getByLabel("E-mail", { exact: true }).fill(EMAIL);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
      // Signed in: the product's navigation; without JavaScript through the callback page's link.
      const proceed = page.getByRole("link", { name: "Continue to the dashboard" });
      const inside = page.getByRole("link", { name: "Customers", exact: true });
      await expect(proceed.or(inside).first()).toBeVisible({ timeout: 45_000 });
      if (await proceed.isVisible()) await proceed.click();
      await expect(inside).toBeVisible();
      for (let i = 0; i < 4; i++) {
        const email = `balanced-${javaScriptEnabled ? "js" : "html"}-${i}@example.com`;
        await page.goto("/customers/new");
        await expect(page.getByRole("heading", { name: "Add New Customer" })).toBeVisible();
        await page.getByLabel("First Name").fill("Balanced");
        await page.getByLabel("Last Name").fill(`Customer ${i}`);
        await page.getByLabel("Email").fill(email);
        await page.getByRole("button", { name: "Save Customer" }).click();
        await expect(page).toHaveURL(/\/customers$/);
        added.push(email);
      }
    } finally {
      await context.close();
    }
  }
  const posts = balancer.requests().filter((r) => r.method === "POST");
  // The sign-in and every customer form, with JavaScript and without.
  expect(posts.length).toBeGreaterThanOrEqual(2 + added.length);
  expect(posts.filter((r) => r.status >= 400)).toEqual([]);
  const formPosts = posts.filter((r) => /^\/customers\/new(\.data)?$/.test(r.uri));
  expect(formPosts).toHaveLength(added.length);
  expect(new Set(formPosts.map((r) => r.upstream)).size, JSON.stringify(formPosts)).toBeGreaterThan(1);
  test.info().annotations.push({
    type: "balancer",
    description: `form posts by instance: ${formPosts.map((r) => r.upstream).join(", ")}`,
  });
  return added.length;
}
