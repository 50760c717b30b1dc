// Templates (docs/decisions/0043-templates-and-merge-tags.md): a tenant's own beside the starter
// templates, made, saved (never over a newer copy), duplicated, deleted and rendered for a customer
// or sample values. Every function takes the tenant first; another tenant's template is "not
// found". A template is saved only when it parses (its merge tags and its design): a 422 names the
// problem and where it is; tags that name nothing the product has are listed by templateCheck()
// and refused at launch, not at save, so a draft can name a field that is yet to be made.
import { ApiError, notFound } from "~/lib/api.server";
import { newId } from "~/lib/id";
import { knownMergeTags, MergeTagError, type MergeTagProblem, mergeTagProblems } from "~/lib/merge-tags";
import { isStarterTemplateId, STARTER_TEMPLATES, type StarterTemplate } from "~/lib/starter-templates";
import { type Block, blockTexts, draftBlocks } from "~/lib/template-blocks";
import { DEFAULT_BRAND } from "~/lib/template-brand";
import { templateBrandOf } from "~/services/brand.server";
import { isTemplateFormat, type TemplateFormat } from "~/lib/templates";
import { MAX_TEMPLATES, type TemplateRow } from "~/models/templates/rows";
import { templates } from "~/models/templates/store.server";
import { type TemplateInput, TemplateInputSchema, type TemplateRenderInput } from "~/schemas/template";
import { fieldDefinitions } from "~/services/custom-fields.server";
import { templateProblems, type TemplateProblem } from "~/services/templates/checks.server";
import { customerMergeValues, exampleLinks, sampleMergeValues, shopOf } from "~/services/templates/merge-values.server";
import {
  compileTemplate,
  type RenderedMessage,
  renderTemplate,
  TemplateCompileError,
  type TemplateSource,
} from "~/services/templates/render.server";

/** A template as /api/templates gives it. */
export type TemplateDto = {
  _id: string;
  id: string;
  name: string;
  subject: string;
  preheader: string;
  format: TemplateFormat;
  /** Blocks, or the HTML or Markdown text. */
  content: Block[] | string;
  /** The text part as edited; null: derived from the design. */
  text: string | null;
  /** The From name and Reply-To of campaigns made from it ("": the sender's). */
  fromName: string;
  replyTo: string;
  /** Grows by one with every save; a save names the version it was read at. */
  version: number;
  /** A starter template: listed for every tenant, duplicated to be changed. */
  starter: boolean;
  createdAt: string;
  updatedAt: string;
};

/** A template in the list. */
export type TemplateSummaryDto = Pick<
  TemplateDto,
  "_id" | "id" | "name" | "subject" | "format" | "fromName" | "replyTo" | "starter" | "version" | "updatedAt"
>;

/** When the starter templates were written (their dates in the list). */
const STARTERS_DATE = "2026-11-29T00:00:00.000Z";

const STARTER_CHANGE = "A starter template cannot be changed: duplicate it and edit the copy";

/**
 * The stored content as the product uses it. Blocks that no longer meet today's rules keep their
 * shape (draftBlocks); blocks that cannot be read are a 422, never an empty design that a save or
 * a copy would then write over the stored one.
 */
function contentOf(format: TemplateFormat, stored: string): Block[] | string {
  if (format !== "blocks") return stored;
  let blocks: Block[] | null;
  try {
    blocks = draftBlocks(JSON.parse(stored));
  } catch {
    blocks = null;
  }
  if (!blocks) throw new ApiError("unprocessable", "This template's blocks cannot be read");
  return blocks;
}

function toDto(row: TemplateRow): TemplateDto {
  const format = isTemplateFormat(row.format) ? row.format : "html";
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    format,
    content: contentOf(format, row.content),
    text: row.text,
    fromName: row.fromName,
    replyTo: row.replyTo,
    version: row.version,
    starter: false,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function starterDto(starter: StarterTemplate): TemplateDto {
  return {
    _id: starter.id,
    id: starter.id,
    name: starter.name,
    subject: starter.subject,
    preheader: starter.preheader,
    format: "blocks",
    // A copy: nothing done to an answer changes the starter for everyone.
    content: structuredClone(starter.blocks),
    text: null,
    fromName: "",
    replyTo: "",
    version: 1,
    starter: true,
    createdAt: STARTERS_DATE,
    updatedAt: STARTERS_DATE,
  };
}

const summary = (t: TemplateDto | TemplateSummaryDto): TemplateSummaryDto => ({
  _id: t.id,
  id: t.id,
  name: t.name,
  subject: t.subject,
  format: t.format,
  fromName: t.fromName,
  replyTo: t.replyTo,
  starter: t.starter,
  version: t.version,
  updatedAt: t.updatedAt,
});

/** The tenant's templates, last edited first, then the starters; `search` matches a name or subject. */
export async function listTemplates(userId: string, search = ""): Promise<TemplateSummaryDto[]> {
  const own = (await templates.listTemplates(userId)).map((row) =>
    summary({
      ...row,
      _id: row.id,
      format: isTemplateFormat(row.format) ? row.format : "html",
      starter: false,
      updatedAt: row.updatedAt.toISOString(),
    }),
  );
  const all = [...own, ...STARTER_TEMPLATES.map((s) => summary(starterDto(s)))];
  const term = search.trim().toLocaleLowerCase("en-IN");
  if (!term) return all;
  return all.filter((t) => `${t.name}\n${t.subject}`.toLocaleLowerCase("en-IN").includes(term));
}

/** One template, the tenant's own or a starter. */
export async function getTemplate(userId: string, id: string): Promise<TemplateDto> {
  const starter = STARTER_TEMPLATES.find((s) => s.id === id);
  if (starter) return starterDto(starter);
  const row = await templates.findTemplate(userId, id);
  if (!row) throw notFound("Template");
  return toDto(row);
}

const sourceOf = (t: TemplateInput | TemplateDto): TemplateSource => ({
  format: t.format,
  subject: t.subject,
  preheader: t.preheader,
  content: t.content,
  text: t.text,
});

/**
 * Every merge-tag problem of a template, each with the part it is in (the subject, the
 * preheader, a block and its text, the HTML or Markdown, the text part) and its line and column.
 */
export function tagProblemsOf(t: TemplateInput | TemplateDto, customFieldNames: readonly string[]): MergeTagProblem[] {
  const known = knownMergeTags(customFieldNames);
  const texts: { where: string; text: string }[] = [
    { where: "Subject", text: t.subject },
    { where: "Preheader", text: t.preheader },
    ...(typeof t.content === "string"
      ? [{ where: t.format === "html" ? "HTML" : "Markdown", text: t.content }]
      : blockTexts(t.content)),
    ...(t.text === null ? [] : [{ where: "Text part", text: t.text }]),
  ];
  return texts.flatMap(({ where, text }) => mergeTagProblems(text, where, known));
}

/** Throws a 422 naming the first thing of the template that does not parse. */
async function checkParses(input: TemplateInput): Promise<void> {
  const syntax = tagProblemsOf(input, []).find((p) => p.kind === "syntax");
  if (syntax) throw unparsable(syntax.where, syntax.message);
  try {
    // One render for a customer with empty fields: a template past the limits of a render (a
    // loop that makes too much text) is refused now, not at send time.
    renderTemplate(await compileTemplate(sourceOf(input), DEFAULT_BRAND), TRIAL_VALUES);
  } catch (error) {
    if (error instanceof TemplateCompileError) throw unparsable(error.where, error.message);
    if (error instanceof MergeTagError) throw unparsable(error.where || "Message", error.reason);
    throw error;
  }
}

/** The values of the render a save tries: a customer with empty fields, no order. */
const TRIAL_VALUES = {
  customer: {},
  last_order: null,
  shop: { name: "Shop", address: "" },
  unsubscribe_url: "https://example.com/u",
  view_in_browser_url: "https://example.com/v",
};

const unparsable = (where: string, message: string) =>
  new ApiError("unprocessable", `${where}: ${message}`, { content: `${where}: ${message}` });

const storedFields = (input: TemplateInput) => ({
  name: input.name,
  subject: input.subject,
  preheader: input.preheader,
  format: input.format,
  content: typeof input.content === "string" ? input.content : JSON.stringify(input.content),
  text: input.text,
  fromName: input.fromName,
  replyTo: input.replyTo,
});

export async function createTemplate(userId: string, input: TemplateInput): Promise<TemplateDto> {
  await checkParses(input);
  if ((await templates.listTemplates(userId)).length >= MAX_TEMPLATES) {
    throw new ApiError("conflict", `You have ${MAX_TEMPLATES} templates: delete one before you make another`);
  }
  return toDto(await templates.createTemplate(userId, newId(), storedFields(input)));
}

/**
 * Saves the whole template. With `version`, only over that version: a save from an older copy
 * (another tab, another person) is a 409 that says so, and the stored template is unchanged.
 */
export async function saveTemplate(userId: string, id: string, input: TemplateInput): Promise<TemplateDto> {
  if (isStarterTemplateId(id)) throw new ApiError("bad_request", STARTER_CHANGE);
  const current = await templates.findTemplate(userId, id);
  if (!current) throw notFound("Template");
  await checkParses(input);
  const saved = await templates.saveTemplate(userId, id, input.version ?? current.version, storedFields(input));
  if (!saved) throw notFound("Template");
  if ("stale" in saved) {
    throw new ApiError(
      "conflict",
      `This template was saved elsewhere since you opened it (version ${saved.stale.version}): reload it to see that version, and copy your changes across`,
    );
  }
  return toDto(saved);
}

/** A copy of a template (the tenant's own or a starter), named "Copy of …", as a new template. */
export async function duplicateTemplate(userId: string, id: string): Promise<TemplateDto> {
  const original = await getTemplate(userId, id);
  const name = original.starter ? original.name : `Copy of ${original.name}`.slice(0, 100);
  const { subject, preheader, format, content, text, fromName, replyTo } = original;
  return createTemplate(userId, checkedInput({ name, subject, preheader, format, content, text, fromName, replyTo }));
}

/**
 * Deletes the tenant's template, unless a campaign made from it is sending or paused (a 409 that
 * names it): such a campaign sends its own copy, but the marketer deleting the template is told
 * which campaign still goes out with it. A finished campaign keeps its copy and does not hold it.
 */
export async function deleteTemplate(userId: string, id: string): Promise<void> {
  if (isStarterTemplateId(id)) throw new ApiError("bad_request", STARTER_CHANGE);
  const [sending] = await templates.campaignsSending(userId, id, 1);
  if (sending !== undefined) {
    throw new ApiError(
      "conflict",
      `This template cannot be deleted while the campaign "${sending}", made from it, is sending or paused: wait until it completes, or cancel it first`,
    );
  }
  if (!(await templates.deleteTemplate(userId, id))) throw notFound("Template");
}

/** A template made here (a copy, a new one) as the rules take it; a 422 with the first problem otherwise. */
function checkedInput(input: Record<string, unknown>): TemplateInput {
  const parsed = TemplateInputSchema.safeParse(input);
  if (!parsed.success)
    throw new ApiError("unprocessable", parsed.error.issues[0]?.message ?? "The template cannot be made");
  return parsed.data;
}

/** The tenant's custom field names (the merge tags of `customer.` beside the built-in ones). */
export async function customFieldNames(userId: string): Promise<string[]> {
  return (await fieldDefinitions(userId)).filter((f) => !f.builtIn).map((f) => f.name);
}

/** A template rendered for one of the tenant's customers or for sample values: what they would receive. */
export async function renderTemplateFor(
  userId: string,
  id: string,
  input: TemplateRenderInput,
): Promise<RenderedMessage> {
  const template = await getTemplate(userId, id);
  const [values, brand] = await Promise.all([
    "customerId" in input ? customerMergeValues(userId, input.customerId) : sampleMergeValues(userId, input.sample),
    templateBrandOf(userId),
  ]);
  try {
    return renderTemplate(await compileTemplate(sourceOf(template), brand), values);
  } catch (error) {
    if (error instanceof MergeTagError) throw new ApiError("unprocessable", error.message);
    if (error instanceof TemplateCompileError) throw unparsable(error.where, error.message);
    throw error;
  }
}

/** What a new template holds, by format: a start to write over, which parses. */
const BLANK: Record<TemplateFormat, Pick<TemplateInput, "format" | "content">> = {
  blocks: {
    format: "blocks",
    content: [
      { type: "heading", text: 'Hello {{ customer.first_name | default: "there" }}', level: 1, align: "left" },
      { type: "text", html: "<p>Write your message here.</p>", align: "left" },
      { type: "footer", text: "" },
    ],
  },
  html: {
    format: "html",
    content:
      '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n</head>\n<body>\n<p>Hello {{ customer.first_name | default: "there" }},</p>\n<p>Write your message here.</p>\n</body>\n</html>\n',
  },
  markdown: {
    format: "markdown",
    content: '# Hello {{ customer.first_name | default: "there" }}\n\nWrite your message here.\n',
  },
};

/** A new template of the format, named "Untitled template", to be edited. */
export async function newTemplate(userId: string, format: TemplateFormat): Promise<TemplateDto> {
  return createTemplate(
    userId,
    TemplateInputSchema.parse({
      name: "Untitled template",
      subject: "A message from {{ shop.name }}",
      ...BLANK[format],
    }),
  );
}

/**
 * A copy of a blocks or Markdown template as HTML (the HTML it compiles to, merge tags kept): for
 * editing it by hand, and for a browser without JavaScript, which the block editor needs.
 */
export async function copyAsHtml(userId: string, id: string): Promise<TemplateDto> {
  const original = await getTemplate(userId, id);
  const compiled = await compileTemplate(sourceOf(original), await templateBrandOf(userId)).catch((error: unknown) => {
    if (error instanceof TemplateCompileError) throw unparsable(error.where, error.message);
    throw error;
  });
  const name = `${original.name} (HTML)`.slice(0, 100);
  const { subject, text } = original;
  return createTemplate(
    userId,
    checkedInput({ name, subject, preheader: "", format: "html", content: compiled.htmlSource, text }),
  );
}

/**
 * A template's preview for sample values (a customer with empty fields, or one of the tenant's),
 * and what to fix before it is sent: the tags that name nothing, images without alt text, links
 * that are not absolute or still examples, a message Gmail would clip, an empty text part, no
 * postal address.
 */
export async function previewTemplate(
  userId: string,
  id: string,
  customerId?: string,
): Promise<{ message: RenderedMessage; problems: TemplateProblem[] }> {
  const template = await getTemplate(userId, id);
  const [message, names, shop] = await Promise.all([
    renderTemplateFor(userId, id, customerId ? { customerId } : { sample: { customer: {}, last_order: null } }),
    customFieldNames(userId),
    shopOf(userId),
  ]);
  const links = exampleLinks();
  const problems = templateProblems({
    html: message.html,
    text: message.text,
    tagProblems: tagProblemsOf(template, names),
    postalAddress: shop.address,
    exampleLinks: [links.unsubscribe_url, links.view_in_browser_url],
    unsubscribeUrl: links.unsubscribe_url,
  });
  return { message, problems };
}

/** What the editor autosaved since the last save: the form's fields as typed, and the version they were typed on. */
export type TemplateDraft = {
  name: string;
  subject: string;
  preheader: string;
  /** The blocks' JSON, or the HTML or Markdown, as typed. */
  content: string;
  text: string;
  /** The From name and Reply-To as typed (absent in a draft kept before templates had them). */
  fromName?: string;
  replyTo?: string;
  version: number;
  /** When it was autosaved (ISO). */
  at: string;
};

/** The most characters an autosaved draft holds (a template's parts, as typed). */
const MAX_DRAFT_CHARS = 1_200_000;
const DRAFT_FIELDS = ["name", "subject", "preheader", "content", "text"] as const;

/**
 * Keeps what the editor holds as the template's draft, whatever it holds (half-typed tags
 * included): nothing typed is lost to a reload, a restart or a lost tab. Not checked beyond its
 * size; the template itself changes only when it is saved.
 */
export async function saveTemplateDraft(
  userId: string,
  id: string,
  typed: Record<(typeof DRAFT_FIELDS)[number], string> & { fromName?: string; replyTo?: string; version: number },
): Promise<TemplateDraft> {
  if (isStarterTemplateId(id)) throw new ApiError("bad_request", STARTER_CHANGE);
  const draft: TemplateDraft = { ...typed, at: new Date().toISOString() };
  const text = JSON.stringify(draft);
  if (text.length > MAX_DRAFT_CHARS) {
    throw new ApiError("payload_too_large", "The draft is too large to keep: shorten the template");
  }
  const stored = await templates.findTemplate(userId, id);
  if (!stored) throw notFound("Template");
  // Typed on an older version: kept on the page, not here, where it would come back over the newer one.
  if (typed.version !== stored.version) {
    throw new ApiError(
      "conflict",
      `This template was saved elsewhere since you opened it (version ${stored.version}): copy your changes, then reload it`,
    );
  }
  if (!(await templates.saveDraft(userId, id, text))) throw notFound("Template");
  return draft;
}

/** Forgets the template's draft (Discard changes). */
export async function discardTemplateDraft(userId: string, id: string): Promise<void> {
  if (isStarterTemplateId(id)) return;
  if (!(await templates.saveDraft(userId, id, null))) throw notFound("Template");
}

/** The template's autosaved draft, or null (none, a starter, or one that cannot be read). */
export async function templateDraft(userId: string, id: string): Promise<TemplateDraft | null> {
  if (isStarterTemplateId(id)) return null;
  const row = await templates.findTemplate(userId, id);
  if (!row?.draft) return null;
  try {
    const value: unknown = JSON.parse(row.draft);
    if (typeof value !== "object" || value === null) return null;
    const record = value as Record<string, unknown>;
    const fields = DRAFT_FIELDS.map((f) => record[f]);
    if (
      !fields.every((f) => typeof f === "string") ||
      typeof record.version !== "number" ||
      typeof record.at !== "string"
    ) {
      return null;
    }
    const [name, subject, preheader, content, text] = fields as string[];
    const own = (key: "fromName" | "replyTo") => (typeof record[key] === "string" ? { [key]: record[key] } : {});
    return {
      name,
      subject,
      preheader,
      content,
      text,
      ...own("fromName"),
      ...own("replyTo"),
      version: record.version,
      at: record.at,
    };
  } catch {
    return null;
  }
}
