// A campaign's design (app/lib/campaign-design.ts) compiled for the pages that show it (its detail
// page, its links, the recipients' "view in browser" copies): compiled once (MJML takes ~9 ms) and
// kept for the campaigns asked for last, made again when its subject or design changed (a draft).
// Null for a plain-text campaign, or a design that cannot be read or compiled (the delivery engine
// fails such a campaign's rows saying why: app/services/sending/campaign-mail.server.ts).
import { readDesign } from "~/lib/campaign-design";
import { type CompiledTemplate, compileTemplate } from "~/services/templates/render.server";

type Kept = { subject: string; design: string; compiled: Promise<CompiledTemplate | null> };
const kept = new Map<string, Kept>();
const KEPT_DESIGNS = 20;

async function compile(subject: string, stored: string, tracking: boolean): Promise<CompiledTemplate | null> {
  try {
    const design = readDesign(stored);
    return design ? await compileTemplate({ ...design, subject }, design.brand, { tracking }) : null;
  } catch {
    return null;
  }
}

/** The campaign's design compiled (with the tracking slots when `tracking`), or null. */
export function compiledDesign(
  campaign: { id: string; subject: string; design: string },
  { tracking = false }: { tracking?: boolean } = {},
): Promise<CompiledTemplate | null> {
  if (campaign.design === "") return Promise.resolve(null);
  const key = `${campaign.id}:${tracking}`;
  const found = kept.get(key);
  if (found && found.subject === campaign.subject && found.design === campaign.design) return found.compiled;
  const compiled = compile(campaign.subject, campaign.design, tracking);
  kept.delete(key);
  if (kept.size >= KEPT_DESIGNS) {
    const oldest = kept.keys().next().value;
    if (oldest !== undefined) kept.delete(oldest);
  }
  kept.set(key, { subject: campaign.subject, design: campaign.design, compiled });
  return compiled;
}
