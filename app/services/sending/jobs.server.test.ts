// @engines sqlite postgres
// The delivery job as the server runs it: Bree starts jobs/delivery.ts in a worker thread with its
// own connection, the built-in vendor runs in this process and posts receipts to the receipts
// route, a launch wakes the job, and the finished campaign notifies its owner.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { resetEnvCache } from "~/env.server";
import { logger } from "~/lib/logger.server";
import { parseConditions } from "~/lib/segment-parse";
import { action as receipts } from "~/routes/api/webhooks-delivery-receipts";
import { launch } from "~/services/campaigns/launch.server";
import { getCampaign } from "~/services/campaigns/views.server";
import { type BackgroundJobs, startBackgroundJobs } from "~/services/job-scheduler.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";

let server: http.Server;
let jobs: BackgroundJobs | undefined;

beforeAll(async () => {
  // The receipts route behind a real HTTP port, as the server would serve it.
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      });
      const response = (await receipts({ request, params: {}, context: {} })) as Response;
      res.writeHead(response.status, { "Content-Type": "application/json" }).end(await response.text());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  process.env.PORT = String((server.address() as AddressInfo).port);
  resetEnvCache();
});

afterAll(async () => {
  await jobs?.stop();
  server.close();
});

describe("the delivery job", () => {
  it("sends a launched campaign in its worker thread, applies the vendor's receipts and notifies when done", async () => {
    const user = await createTestUser("Job owner");
    await seedTenant(user.id, { customers: 300, orders: 0, seed: 5 });
    const parsed = parseConditions({ visits: { $gte: 0 } });
    if (!parsed.ok) throw new Error(parsed.message);
    const segment = await createSegment(user.id, { name: "All", description: "", tree: parsed.tree });

    jobs = await startBackgroundJobs({ root: path.resolve(import.meta.dirname, "../../.."), log: logger() });
    const campaign = await launch(user.id, {
      name: "Job test",
      subject: "Hi {NAME}",
      segmentId: segment.id,
      message: "Hello {NAME}",
      description: "",
    });
    let current = await getCampaign(user.id, campaign.id);
    for (let i = 0; i < 600 && (current.status !== "Completed" || current.deliveryStats.pending > 0); i++) {
      await new Promise((r) => setTimeout(r, 100));
      current = await getCampaign(user.id, campaign.id);
    }
    expect(current.status).toBe("Completed");
    expect(current.deliveryStats.pending).toBe(0);
    expect(current.deliveredCount + current.failedCount + current.bouncedCount).toBe(300);
    expect(current.deliveredCount).toBeGreaterThan(240);

    let performance = null;
    for (let i = 0; i < 50 && !performance; i++) {
      performance = await db().notification.findFirst({ where: { userId: user.id, type: "CAMPAIGN_PERFORMANCE" } });
      if (!performance) await new Promise((r) => setTimeout(r, 100));
    }
    const rate = ((current.deliveryStats.sent / 300) * 100).toFixed(1);
    expect(performance?.details).toContain(
      `Campaign "Job test" finished: sent ${current.deliveryStats.sent} of 300 (${rate}% of the audience)`,
    );
    // Opens keep arriving after completion: the notification's open figure is a first reading.
    if (current.openedCount > 0) expect(performance?.details).toMatch(/opened by \d+\.\d% of sent so far/);
  }, 90_000);
});
