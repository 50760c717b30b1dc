// The images' model: Prisma's calls, one body for both engines (bytes are BLOB on SQLite and bytea
// on PostgreSQL, which Prisma maps alike), so this folder has no engine files (as
// app/models/templates/). The same bytes are kept once per tenant: a unique (userId, sha256), and
// an upload that meets it answers the stored row.
import { db } from "~/db/prisma.server";
import type { ImagesStore } from "./contract";
import type { ImageListRow } from "./rows";

const LIST_COLUMNS = {
  id: true,
  userId: true,
  name: true,
  contentType: true,
  size: true,
  width: true,
  height: true,
  sha256: true,
  createdAt: true,
} as const satisfies Record<keyof ImageListRow, true>;

export const images: ImagesStore = {
  async listImages(userId) {
    return db().image.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: LIST_COLUMNS,
    });
  },

  async countImages(userId) {
    return db().image.count({ where: { userId } });
  },

  async findImage(userId, id) {
    return (await db().image.findFirst({ where: { id, userId }, select: LIST_COLUMNS })) ?? undefined;
  },

  async findImageFile(userId, id) {
    return (await db().image.findFirst({ where: { id, userId } })) ?? undefined;
  },

  async keepImage(userId, id, fields) {
    const same = { userId, sha256: fields.sha256 };
    const stored = await db().image.findFirst({ where: same, select: LIST_COLUMNS });
    if (stored) return { row: stored, created: false };
    try {
      const row = await db().image.create({ data: { id, userId, ...fields }, select: LIST_COLUMNS });
      return { row, created: true };
    } catch (error) {
      // Two uploads of the same file at once: the other one's row is the answer.
      const raced = await db().image.findFirst({ where: same, select: LIST_COLUMNS });
      if (raced) return { row: raced, created: false };
      throw error;
    }
  },

  async usesOf(userId, text, limit) {
    const [templates, campaigns] = await Promise.all([
      db().emailTemplate.findMany({
        where: { userId, OR: [{ content: { contains: text } }, { draft: { contains: text } }] },
        select: { name: true },
        orderBy: { updatedAt: "desc" },
        take: limit,
      }),
      db().campaign.findMany({
        where: { userId, design: { contains: text } },
        select: { name: true },
        orderBy: { createdAt: "desc" },
        take: limit,
      }),
    ]);
    return { templates: templates.map((t) => t.name), campaigns: campaigns.map((c) => c.name) };
  },

  async deleteImage(userId, id) {
    const { count } = await db().image.deleteMany({ where: { id, userId } });
    return count === 1;
  },
};
