// The flows' Prisma calls, one body for both engines (db() is PostgreSQL's client there). The
// statements whose SQL differs are each engine's own (./sqlite.server.ts, ./postgres.server.ts): the
// clock's claim and the send step's delivery row.
import { db } from "~/db/prisma.server";
import { isUniqueViolation } from "~/db/unique-violation.server";
import { newId } from "~/lib/id";
import { transaction, type Tx } from "~/models/transaction/store.server";
import type { FlowsStore } from "./contract";
import { cursorAt, StaleClaim, stepIdOfKey } from "./rows";

const FLOW_ROW = {
  id: true,
  userId: true,
  name: true,
  status: true,
  version: true,
  eventCursor: true,
  createdAt: true,
  updatedAt: true,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A flow live for the first time reads the events kept from now on, not those before. */
async function startReading(tx: Tx, flowId: string, now: number): Promise<void> {
  await tx.flow.updateMany({ where: { id: flowId, eventCursor: "" }, data: { eventCursor: cursorAt(now) } });
}

/** The ids of the flow's step campaigns, by step id (a step's campaigns of every version). */
async function stepCampaignsOf(flowId: string, tx?: Tx) {
  return (tx ?? db()).campaign.findMany({
    where: { flowId },
    select: {
      id: true,
      flowStepId: true,
      sentCount: true,
      deliveredCount: true,
      openedCount: true,
      clickedCount: true,
      failedCount: true,
      bouncedCount: true,
      suppressedCount: true,
      complainedCount: true,
    },
    orderBy: { createdAt: "asc" },
  });
}

export const commonFlows: Omit<FlowsStore, "claimDue" | "appendStepDelivery"> = {
  async listFlows(userId) {
    return db().flow.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: FLOW_ROW,
    });
  },

  async findFlow(userId, id) {
    return db().flow.findFirst({ where: { id, userId }, select: FLOW_ROW });
  },

  async findFlowById(id) {
    return db().flow.findUnique({ where: { id }, select: FLOW_ROW });
  },

  async readDefinition(flowId, version) {
    const row = await db().flowVersion.findUnique({
      where: { flowId_version: { flowId, version } },
      select: { definition: true },
    });
    return row?.definition ?? null;
  },

  async hasEntries(flowId, version) {
    return (await db().flowEntry.findFirst({ where: { flowId, version }, select: { id: true } })) !== null;
  },

  async flowCounts(flowIds) {
    if (flowIds.length === 0) return [];
    const groups = await db().flowEntry.groupBy({
      by: ["flowId", "state"],
      where: { flowId: { in: [...flowIds] } },
      _count: { _all: true },
      _sum: { revenuePaise: true },
    });
    return flowIds.map((flowId) => {
      const of = (state: string) => groups.find((g) => g.flowId === flowId && g.state === state);
      return {
        flowId,
        active: of("active")?._count._all ?? 0,
        done: of("done")?._count._all ?? 0,
        converted: of("converted")?._count._all ?? 0,
        revenuePaise: Number(of("converted")?._sum.revenuePaise ?? 0),
      };
    });
  },

  async stepCounts(flowId) {
    const [passed, exits, waiting, converted] = await Promise.all([
      db().flowPassage.groupBy({ by: ["stepId"], where: { flowId }, _count: { _all: true } }),
      db().flowPassage.groupBy({ by: ["stepId"], where: { flowId, outcome: "exited" }, _count: { _all: true } }),
      db().flowEntry.groupBy({ by: ["stepId"], where: { flowId, state: "active" }, _count: { _all: true } }),
      db().flowPassage.findMany({
        where: { flowId, entry: { state: "converted" } },
        select: { stepId: true, entry: { select: { revenuePaise: true } } },
      }),
    ]);
    const steps = new Set([...passed, ...waiting].map((g) => g.stepId).filter((id) => id !== ""));
    return [...steps].map((stepId) => {
      const conversions = converted.filter((p) => p.stepId === stepId);
      return {
        stepId,
        entered: passed.find((g) => g.stepId === stepId)?._count._all ?? 0,
        waiting: waiting.find((g) => g.stepId === stepId)?._count._all ?? 0,
        exited: exits.find((g) => g.stepId === stepId)?._count._all ?? 0,
        converted: conversions.length,
        revenuePaise: conversions.reduce((sum, p) => sum + Number(p.entry.revenuePaise), 0),
      };
    });
  },

  async stepDeliveryCounts(flowId) {
    const counts = new Map<string, Awaited<ReturnType<FlowsStore["stepDeliveryCounts"]>>[number]>();
    for (const c of await stepCampaignsOf(flowId)) {
      const stepId = stepIdOfKey(c.flowStepId ?? "");
      const seen = counts.get(stepId) ?? {
        stepId,
        campaignId: c.id,
        sent: 0,
        delivered: 0,
        opened: 0,
        clicked: 0,
        failed: 0,
        suppressed: 0,
      };
      // The newest version's campaign is the one its page links to.
      seen.campaignId = c.id;
      seen.sent += c.sentCount + c.deliveredCount + c.bouncedCount + c.complainedCount;
      seen.delivered += c.deliveredCount;
      seen.opened += c.openedCount;
      seen.clicked += c.clickedCount;
      seen.failed += c.failedCount + c.bouncedCount;
      seen.suppressed += c.suppressedCount;
      counts.set(stepId, seen);
    }
    return [...counts.values()];
  },

  async listPeople(userId, flowId, limit, state) {
    const rows = await db().flowEntry.findMany({
      where: { userId, flowId, ...(state ? { state } : {}) },
      orderBy: [{ enteredAt: "desc" }, { id: "desc" }],
      take: limit,
      select: {
        id: true,
        customerId: true,
        version: true,
        stepId: true,
        state: true,
        enteredAt: true,
        dueAt: true,
        endedAt: true,
        revenuePaise: true,
        customer: { select: { firstName: true, lastName: true, email: true } },
      },
    });
    return rows.map((r) => ({
      entryId: r.id,
      customerId: r.customerId,
      firstName: r.customer.firstName,
      lastName: r.customer.lastName,
      email: r.customer.email,
      version: r.version,
      stepId: r.stepId,
      state: r.state,
      enteredAt: Number(r.enteredAt),
      dueAt: Number(r.dueAt),
      endedAt: r.endedAt === null ? null : Number(r.endedAt),
      revenuePaise: Number(r.revenuePaise),
    }));
  },

  async passagesOf(userId, customerId, limit) {
    const rows = await db().flowPassage.findMany({
      where: { userId, customerId },
      orderBy: { at: "desc" },
      take: limit,
      select: { flowId: true, stepId: true, outcome: true, details: true, at: true },
    });
    const names = new Map(
      (
        await db().flow.findMany({
          where: { userId, id: { in: [...new Set(rows.map((r) => r.flowId))] } },
          select: { id: true, name: true },
        })
      ).map((f) => [f.id, f.name]),
    );
    return rows.map((r) => ({ ...r, flowName: names.get(r.flowId) ?? "", at: Number(r.at) }));
  },

  async stepCampaignIds(flowId) {
    return (await stepCampaignsOf(flowId)).map((c) => c.id);
  },

  async createFlow(flow, now = Date.now()) {
    await db().flow.create({
      data: {
        id: flow.id,
        userId: flow.userId,
        name: flow.name,
        status: flow.status,
        version: 1,
        createdAt: new Date(now),
        updatedAt: new Date(now),
        versions: { create: { version: 1, definition: flow.definition, createdAt: new Date(now) } },
      },
    });
  },

  async updateFlow(flow, newVersion, now = Date.now()) {
    return transaction(async (tx) => {
      const current = await tx.flow.findFirst({
        where: { id: flow.id, userId: flow.userId },
        select: { version: true },
      });
      if (!current) return null;
      const version = newVersion ? current.version + 1 : current.version;
      await tx.flow.update({
        where: { id: flow.id },
        data: { name: flow.name, status: flow.status, version, updatedAt: new Date(now) },
      });
      if (flow.status === "live") await startReading(tx, flow.id, now);
      await tx.flowVersion.upsert({
        where: { flowId_version: { flowId: flow.id, version } },
        create: { flowId: flow.id, version, definition: flow.definition, createdAt: new Date(now) },
        update: { definition: flow.definition },
      });
      return version;
    });
  },

  async setFlowStatus(userId, id, status, now = Date.now()) {
    return transaction(async (tx) => {
      const { count } = await tx.flow.updateMany({ where: { id, userId }, data: { status, updatedAt: new Date(now) } });
      if (status === "live") await startReading(tx, id, now);
      return count > 0;
    });
  },

  async deleteFlow(userId, id) {
    const { count } = await db().flow.deleteMany({ where: { id, userId } });
    return count > 0;
  },

  async liveFlows() {
    return db().flow.findMany({ where: { status: "live" }, orderBy: { id: "asc" }, select: FLOW_ROW });
  },

  async enter(flow, first, entries, reentry, conversions, cursor, now = Date.now()) {
    return transaction(async (tx) => {
      // The cursor first: a clock that read the same events meanwhile has moved it, and this one
      // writes nothing (its entries would be the same).
      if (cursor) {
        const moved = await tx.flow.updateMany({
          where: { id: flow.id, eventCursor: cursor.from },
          data: { eventCursor: cursor.to },
        });
        if (moved.count === 0) return null;
      }
      let converted = 0;
      for (const c of conversions) {
        const ended = await tx.flowEntry.updateMany({
          where: { flowId: flow.id, customerId: c.customerId, state: "active", enteredAt: { lte: BigInt(c.at) } },
          data: { state: "converted", stepId: "", endedAt: BigInt(now), revenuePaise: c.revenuePaise },
        });
        converted += ended.count;
      }
      let entered = 0;
      for (const e of entries) {
        const last = await tx.flowEntry.findFirst({
          where: { flowId: flow.id, customerId: e.customerId },
          orderBy: { enteredAt: "desc" },
          select: { entryKey: true, enteredAt: true, state: true },
        });
        if (last) {
          if (last.entryKey === e.entryKey || last.state === "active" || reentry === "never") continue;
          if (Number(last.enteredAt) > e.at - reentry.afterDays * DAY_MS) continue;
        }
        await tx.flowEntry.create({
          data: {
            id: newId(new Date(e.at)),
            userId: flow.userId,
            flowId: flow.id,
            version: flow.version,
            customerId: e.customerId,
            entryKey: e.entryKey,
            stepId: first.stepId,
            state: "active",
            dueAt: BigInt(now + first.delayMs),
            enteredAt: BigInt(e.at),
          },
        });
        entered += 1;
      }
      return { entered, converted };
    });
  },

  async passStep(entry, passage, exit, now, tx) {
    const moved = await tx.flowEntry.updateMany({
      where: { id: entry.id, claims: entry.claims, stepId: entry.stepId, state: "active" },
      data:
        "stepId" in exit
          ? { stepId: exit.stepId, dueAt: BigInt(exit.dueAt) }
          : { stepId: "", state: exit.end, endedAt: BigInt(now), revenuePaise: exit.revenuePaise ?? 0 },
    });
    if (moved.count === 0) throw new StaleClaim();
    try {
      await tx.flowPassage.create({
        data: {
          entryId: entry.id,
          stepId: entry.stepId,
          flowId: entry.flowId,
          version: entry.version,
          userId: entry.userId,
          customerId: entry.customerId,
          outcome: passage.outcome,
          details: passage.details,
          at: BigInt(now),
        },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new StaleClaim();
      throw error;
    }
  },

  async findStepCampaign(flowId, key) {
    const row = await db().campaign.findFirst({ where: { flowId, flowStepId: key }, select: { id: true } });
    return row?.id ?? null;
  },

  async createStepCampaign(c, now = Date.now()) {
    try {
      const made = await db().campaign.create({
        data: {
          id: newId(new Date(now)),
          userId: c.userId,
          name: c.name,
          subject: c.subject,
          message: c.message,
          design: c.design,
          templateId: c.templateId,
          status: "Active",
          launchedAt: new Date(now),
          createdAt: new Date(now),
          updatedAt: new Date(now),
          flowId: c.flowId,
          flowStepId: c.stepKey,
        },
        select: { id: true },
      });
      return made.id;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const made = await commonFlows.findStepCampaign(c.flowId, c.stepKey);
      if (!made) throw error;
      return made;
    }
  },

  async orderedSince(userId, customerId, since, tx) {
    const order = await (tx ?? db()).order.findFirst({
      where: { userId, customerId, createdAt: { gte: new Date(since) } },
      select: { id: true },
    });
    return order !== null;
  },

  async engagedWithStep(flowId, stepId, customerId, kind, tx) {
    const client = tx ?? db();
    const campaignIds = (await stepCampaignsOf(flowId, tx))
      .filter((c) => stepIdOfKey(c.flowStepId ?? "") === stepId)
      .map((c) => c.id);
    if (campaignIds.length === 0) return false;
    const row = await client.delivery.findFirst({
      where: {
        campaignId: { in: campaignIds },
        customerId,
        ...(kind === "opened"
          ? { OR: [{ openedAt: { not: null } }, { clickedAt: { not: null } }] }
          : { clickedAt: { not: null } }),
      },
      select: { seq: true },
    });
    return row !== null;
  },
};
