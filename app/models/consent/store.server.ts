// The consent model: one body for both engines, so this folder has no engine files and no
// engineDoor(); other code imports `consents` from here as from any domain's door. Prisma's calls
// only (db() is PostgreSQL's client there).
import { db } from "~/db/prisma.server";
import type { Tx } from "~/models/transaction/store.server";
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

  async writeConsent(userId, customerId, consent, tx?: Tx) {
    const data = { status: consent.status, at: consent.at, source: consent.source, text: consent.text };
    await (tx ?? db()).customerConsent.upsert({
      where: { customerId },
      create: { customerId, userId, ...data },
      update: data,
    });
  },

  async clearConsent(userId, customerId, tx?: Tx) {
    await (tx ?? db()).customerConsent.deleteMany({ where: { userId, customerId } });
  },
};
