// @engines sqlite postgres
// Deleting a segment that draft campaigns use, on a real SQLite database: the /segments delete
// confirmation and DELETE /api/segments/{id} name the drafts it leaves without a segment; the
// delete itself goes ahead (200, as before), and the drafts keep their content. Other tenants'
// drafts and launched campaigns are not named.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { parseConditions } from "~/lib/segment-parse";
import { action as segmentAction } from "~/routes/api/segments-id";
import * as segmentsPage from "~/routes/segments";
import { saveDraft } from "~/services/campaigns/drafts.server";
import { launch } from "~/services/campaigns/launch.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";
import { signInAndRedirect } from "~/services/session.server";
import { issueToken } from "~/services/token.server";

const BASE = "http://localhost:3000";
let userId: string;
let cookie: string;

const everyone = () => {
  const p = parseConditions({ visits: { $gte: 0 } });
  if (!p.ok) throw new Error(p.message);
  return p.tree;
};
const content = (name: string, segmentId: string) => ({
  name,
  segmentId,
  subject: "s",
  message: "Hi {NAME}",
  description: "",
});

beforeAll(async () => {
  const user = await createTestUser("Segment deleter");
  userId = user.id;
  const res = await signInAndRedirect(new Request(`${BASE}/login`), user.id, "/");
  cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  await seedTenant(user.id, { customers: 5, orders: 0, seed: 2 });
});

async function pageWarning(segmentId: string) {
  const request = new Request(`${BASE}/segments?delete=${segmentId}`, { headers: { Cookie: cookie } });
  const data = (await segmentsPage.loader({ request, params: {}, context: {} })) as { deleteWarning: string | null };
  return data.deleteWarning;
}

describe("deleting a segment that drafts use", () => {
  it("names the drafts in the confirmation and in the API's answer, then deletes and keeps the drafts", async () => {
    const segment = await createSegment(userId, { name: "Used by drafts", description: "", tree: everyone() });
    const a = await saveDraft(userId, content("Diwali teaser", segment.id));
    const b = await saveDraft(userId, content("Winter sale", segment.id));
    await launch(userId, content("Already sent", segment.id));

    const warning =
      'Deleting this segment leaves the draft campaigns "Diwali teaser" and "Winter sale" without a segment: choose another segment before launching them.';
    expect(await pageWarning(segment.id)).toBe(warning);

    const res = (await segmentAction({
      request: new Request(`${BASE}/api/segments/${segment.id}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${await issueToken(userId)}` },
      }),
      params: { id: segment.id },
      context: {},
    })) as Response;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, warnings: [warning] });
    const drafts = await db().campaign.findMany({ where: { id: { in: [a.id, b.id] } } });
    expect(drafts.map((d) => [d.name, d.status, d.segmentId])).toEqual([
      ["Diwali teaser", "Draft", null],
      ["Winter sale", "Draft", null],
    ]);
  });

  it("says nothing when no draft uses it, and names one draft in the singular", async () => {
    const unused = await createSegment(userId, { name: "Unused", description: "", tree: everyone() });
    expect(await pageWarning(unused.id)).toBeNull();
    const other = await createTestUser("Other tenant");
    await saveDraft(
      other.id,
      content("Not yours", (await createSegment(other.id, { name: "Theirs", description: "", tree: everyone() })).id),
    );
    const one = await createSegment(userId, { name: "One draft", description: "", tree: everyone() });
    await saveDraft(userId, content("Spring note", one.id));
    expect(await pageWarning(one.id)).toBe(
      'Deleting this segment leaves the draft campaign "Spring note" without a segment: choose another segment before launching it.',
    );
    const res = (await segmentAction({
      request: new Request(`${BASE}/api/segments/${unused.id}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${await issueToken(userId)}` },
      }),
      params: { id: unused.id },
      context: {},
    })) as Response;
    expect(await res.json()).toEqual({ success: true, warnings: [] });
  });
});
