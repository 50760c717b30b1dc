// The templates' model: Prisma's calls (and one statement of the same text on both engines), one body for both engines, so this folder has no
// engine files and no engineDoor() (as app/models/idempotency/). A save is one conditional UPDATE
// on (id, userId, version), so of two saves from the same copy only the first lands, on either
// engine, without a transaction held across awaits.
import { db } from "~/db/prisma.server";
import type { TemplatesStore } from "./contract";
import { MAX_TEMPLATES, type TemplateListRow } from "./rows";

const LIST_COLUMNS = {
  id: true,
  userId: true,
  name: true,
  subject: true,
  preheader: true,
  format: true,
  fromName: true,
  replyTo: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Record<keyof TemplateListRow, true>;

export const templates: TemplatesStore = {
  async listTemplates(userId) {
    return db().emailTemplate.findMany({
      where: { userId },
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      select: LIST_COLUMNS,
      take: MAX_TEMPLATES,
    });
  },

  async findTemplate(userId, id) {
    return (await db().emailTemplate.findFirst({ where: { id, userId } })) ?? undefined;
  },

  async createTemplate(userId, id, fields) {
    return db().emailTemplate.create({ data: { id, userId, ...fields } });
  },

  async saveTemplate(userId, id, version, fields) {
    const { count } = await db().emailTemplate.updateMany({
      where: { id, userId, version },
      data: { ...fields, draft: null, version: { increment: 1 } },
    });
    const row = await db().emailTemplate.findFirst({ where: { id, userId } });
    if (!row) return undefined;
    return count === 1 ? row : { stale: row };
  },

  async saveDraft(userId, id, draft) {
    // One statement that leaves "updatedAt" alone: a draft is not an edit of the template (Prisma's
    // update would stamp it, and the list's "Last edited" would move with every autosave).
    const count = await db()
      .$executeRaw`UPDATE "EmailTemplate" SET "draft" = ${draft} WHERE "id" = ${id} AND "userId" = ${userId}`;
    return count === 1;
  },

  async campaignsSending(userId, templateId, limit) {
    const rows = await db().campaign.findMany({
      where: { userId, templateId, status: { in: ["Active", "Paused"] } },
      select: { name: true },
      orderBy: { createdAt: "asc" },
      take: limit,
    });
    return rows.map((r) => r.name);
  },

  async deleteTemplate(userId, id) {
    const { count } = await db().emailTemplate.deleteMany({ where: { id, userId } });
    return count === 1;
  },
};
