// @engines sqlite postgres
// Segments that include other segments, through the doors a user has: /api (create, count, a loop
// refused with a 400 naming it, a delete refused with a 409 naming the segment that includes it,
// another tenant's segment refused), the segment form without JavaScript (the 'Segment' row posts
// and opens again as it was, and the segment being edited is not offered), the segment's page in
// words, and a campaign launched to such a segment reaching exactly its customers.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { args, bearerFor, cookieFor, formRequest, makeRequest } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { newId } from "~/lib/id";
import * as segmentsApi from "~/routes/api/segments";
import * as segmentApi from "~/routes/api/segments-id";
import * as countApi from "~/routes/api/segments-id-audience-count";
import * as detailRoute from "~/routes/segments-detail";
import * as formRoute from "~/routes/segments-form";
import * as listRoute from "~/routes/segments";
import { launch } from "~/services/campaigns/launch.server";

type Json = Record<string, unknown> & { error?: { code: string; message: string } };

let userId: string;
let otherId: string;
let bearer: string;
let cookie: string;

beforeAll(async () => {
  userId = (await createTestUser("Membership")).id;
  otherId = (await createTestUser("Membership other")).id;
  bearer = await bearerFor(userId);
  cookie = await cookieFor(userId);
  // Customer i spent ₹1,000 × i and visited i times, i from 0 to 5.
  for (let i = 0; i < 6; i++) {
    await db().customer.create({
      data: {
        id: newId(),
        userId,
        firstName: `P${i}`,
        lastName: "Q",
        email: `p${i}@example.in`,
        totalSpendPaise: i * 100_000,
        visits: i,
      },
    });
  }
});

async function api(
  route: { action?: unknown; loader?: unknown },
  kind: "action" | "loader",
  path: string,
  init: { method?: string; json?: unknown; params?: Record<string, string> } = {},
) {
  const request = makeRequest(path, { method: init.method, json: init.json, auth: { bearer } });
  const handler = route[kind] as (a: ReturnType<typeof args>) => Promise<unknown>;
  const response = (await handler(args(request, init.params))) as Response;
  return { status: response.status, body: (await response.json()) as Json };
}

const createVia = (json: unknown) => api(segmentsApi, "action", "/api/segments", { method: "POST", json });

describe("inSegment through the doors a user has", () => {
  it("creates, counts, refuses a loop and refuses to delete what another segment includes, over /api", async () => {
    const big = await createVia({ name: "Big", conditions: { totalSpend: { $gte: 3000 } } });
    expect(big.status).toBe(201);
    const bigId = String(big.body._id);
    const rest = await createVia({ name: "Rest", conditions: { inSegment: { $ne: bigId } } });
    expect([rest.status, rest.body.customerCount]).toEqual([201, 3]);
    const restId = String(rest.body._id);
    const count = await api(countApi, "loader", `/api/segments/${restId}/audience-count`, { params: { id: restId } });
    expect(count.body).toEqual({ count: 3 });

    const loop = await api(segmentApi, "action", `/api/segments/${bigId}`, {
      method: "PUT",
      params: { id: bigId },
      json: { name: "Big", conditions: { $or: [{ totalSpend: { $gte: 3000 } }, { inSegment: { $eq: restId } }] } },
    });
    expect(loop.status).toBe(400);
    expect(loop.body.error?.message).toBe(
      'conditions.inSegment: a segment cannot include itself ("Big" → "Rest" → "Big")',
    );

    const deleted = await api(segmentApi, "action", `/api/segments/${bigId}`, {
      method: "DELETE",
      params: { id: bigId },
    });
    expect(deleted.status).toBe(409);
    expect(deleted.body.error?.message).toBe('the segment "Rest" includes this segment: remove that condition first');
    // The list's delete says the same, and the segment is still there.
    const listed = (await listRoute.action(
      args(formRequest("/segments", { intent: "delete", id: bigId }, { cookie })),
    )) as { data: { message: string }; init: { status: number } };
    expect([listed.init.status, listed.data.message]).toEqual([
      409,
      'Delete failed: the segment "Rest" includes this segment: remove that condition first',
    ]);
    expect(await db().segment.count({ where: { id: bigId } })).toBe(1);

    // Another tenant's segment is no segment of this one.
    const theirs = await db().segment.create({
      data: { id: newId(), userId: otherId, name: "Theirs", conditions: '{"visits":{"$gte":0}}' },
    });
    const foreign = await createVia({ name: "Foreign", conditions: { inSegment: { $eq: theirs.id } } });
    expect([foreign.status, foreign.body.error?.message]).toEqual([
      400,
      `conditions.inSegment: there is no segment with the id ${theirs.id}`,
    ]);
    const malformed = await createVia({ name: "Bad", conditions: { inSegment: { $in: [bigId] } } });
    expect([malformed.status, malformed.body.error?.message]).toEqual([
      400,
      'conditions: conditions.inSegment.$in: unknown operator "$in" for inSegment (allowed: $eq, $ne)',
    ]);
  });

  it("saves a 'Segment' row without JavaScript, opens it again, and says it in words", async () => {
    const vips = await createVia({ name: "Regulars", conditions: { visits: { $gte: 4 } } });
    const vipsId = String(vips.body._id);
    const fields = {
      name: "Regular big spenders",
      "conditions.logic": "AND",
      "conditions.children[0].kind": "condition",
      "conditions.children[0].field": "inSegment",
      "conditions.children[0].op": "$eq",
      "conditions.children[0].value": vipsId,
      "conditions.children[1].kind": "condition",
      "conditions.children[1].field": "totalSpend",
      "conditions.children[1].op": "$gte",
      "conditions.children[1].value": "5000",
    };
    const saved = (await formRoute.action(args(formRequest("/segments/new", fields, { cookie })))) as Response;
    expect(saved.status).toBe(302);
    const segment = await db().segment.findFirstOrThrow({ where: { userId, name: "Regular big spenders" } });
    expect(JSON.parse(segment.conditions)).toEqual({
      $and: [{ inSegment: { $eq: vipsId } }, { totalSpend: { $gte: 5000 } }],
    });

    const opened = (await formRoute.loader(
      args(makeRequest(`/segments/edit/${segment.id}`, { auth: { cookie } }), { id: segment.id }),
    )) as {
      values: { conditions: { children: { field: string; op: string; value: string }[] } };
      fields: { key: string; choices: string[]; choiceLabels?: Record<string, string> }[];
      preview: { count: number } | null;
    };
    expect(opened.values.conditions.children[0]).toMatchObject({ field: "inSegment", op: "$eq", value: vipsId });
    expect(opened.preview?.count).toBe(1);
    const offered = opened.fields.find((f) => f.key === "inSegment");
    expect(offered?.choiceLabels?.[vipsId]).toBe("Regulars");
    expect(offered?.choices).not.toContain(segment.id);

    const detail = (await detailRoute.loader(
      args(makeRequest(`/segments/${segment.id}`, { auth: { cookie } }), { id: segment.id }),
    )) as { segment: { summary: string }; count: number };
    expect([detail.segment.summary, detail.count]).toEqual([
      'In segment "Regulars" AND Total spend greater than or equal to ₹5,000',
      1,
    ]);
  });

  it("launches a campaign to a segment that leaves another out, reaching exactly its customers", async () => {
    const few = await createVia({ name: "Few visits", conditions: { visits: { $lte: 1 } } });
    const target = await createVia({
      name: "Middle",
      conditions: { $and: [{ inSegment: { $ne: String(few.body._id) } }, { visits: { $lte: 3 } }] },
    });
    const campaign = await launch(userId, {
      name: "Middle ones",
      segmentId: String(target.body._id),
      subject: "Hello",
      message: "Hi {NAME}",
      description: "",
    });
    expect(campaign.audienceSize).toBe(2);
    const reached = await db().delivery.findMany({ where: { campaignId: campaign.id } });
    expect(reached.map((d) => d.name).sort()).toEqual(["P2 Q", "P3 Q"]);
  });
});
