// The consent model: one body for both engines, so this folder has no engine files and no
// engineDoor(); other code imports `consents` from here as from any domain's door. Prisma's calls
// only (db() is PostgreSQL's client there).
import { db } from "~/db/prisma.server";
import { inTransaction, type Tx } from "~/models/transaction/store.server";
import type { ConsentStore } from "./contract";
import type { ConsentRow } from "./rows";

const COLUMNS = { status: true, at: true, source: true, text: true } as const;

const asRow = (row: { status: string; at: Date; source: string; text: string }): ConsentRow => ({
  status: row.status === "unsubscribed" ? "unsubscribed" : "subscribed",
  at: row.at,
  source: row.source,
  text: row.text,
});

export const consents: ConsentStore = {
  async readConsent(userId, customerId) {
    const row = await db().customerConsent.findFirst({ where: { userId, customerId }, select: COLUMNS });
    return row ? asRow(row) : null;
  },

  async readConsentsOf(userId, customerIds) {
    if (customerIds.length === 0) return [];
    const rows = await db().customerConsent.findMany({
      where: { userId, customerId: { in: [...customerIds] } },
      select: { ...COLUMNS, customerId: true },
    });
    return rows.map((r) => ({ ...asRow(r), customerId: r.customerId }));
  },

  async readConsentsByEmail(userId, emails) {
    if (emails.length === 0) return [];
    const rows = await db().customer.findMany({
      where: { userId, email: { in: [...emails] } },
      select: { id: true, email: true, consent: { select: COLUMNS } },
    });
    return rows.map((r) => ({ customerId: r.id, email: r.email, recorded: r.consent ? asRow(r.consent) : null }));
  },

  async holdsConsents(userId) {
    return (await db().customerConsent.findFirst({ where: { userId }, select: { customerId: true } })) !== null;
  },

  async writeConsents(userId, rows, tx?: Tx) {
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.customerId);
    // Replaced: what was recorded goes, the new record comes (one statement each for them all).
    await inTransaction(tx, async (t) => {
      await t.customerConsent.deleteMany({ where: { userId, customerId: { in: ids } } });
      await t.customerConsent.createMany({
        data: rows.map((r) => ({
          customerId: r.customerId,
          userId,
          status: r.status,
          at: r.at,
          source: r.source,
          text: r.text,
        })),
      });
    });
  },

  async clearConsents(userId, customerIds, tx?: Tx) {
    if (customerIds.length === 0) return;
    await (tx ?? db()).customerConsent.deleteMany({ where: { userId, customerId: { in: [...customerIds] } } });
  },
};
