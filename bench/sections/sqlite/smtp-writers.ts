// SMTP sending beside four /api writers, on SQLite (a database of its own): bench/helpers/smtp-writers.ts.
import { sendBesideWriters } from "../../helpers/smtp-writers.ts";
import type { BenchContext, BenchSection } from "../../harness/types.ts";

export default function smtpWritersSection(ctx: BenchContext): Promise<BenchSection> {
  return sendBesideWriters({ engine: "sqlite", workDir: ctx.workDir, log: ctx.log });
}
