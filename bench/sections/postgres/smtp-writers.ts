// SMTP sending beside four /api writers, on PostgreSQL (a tenant of its own in the bench's
// database): bench/helpers/smtp-writers.ts.
import { sendBesideWriters } from "../../helpers/smtp-writers.ts";
import type { BenchSection, PostgresBenchContext } from "../../harness/types.ts";

export default function smtpWritersSection(ctx: PostgresBenchContext): Promise<BenchSection> {
  return sendBesideWriters({ engine: "postgres", workDir: ctx.workDir, databaseUrl: ctx.databaseUrl, log: ctx.log });
}
