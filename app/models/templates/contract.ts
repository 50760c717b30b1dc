// What the templates domain offers (the door: ./store.server.ts): a tenant's templates listed,
// read, made, saved (only from the copy last read: `version` says which), their drafts autosaved,
// and deleted. The rules (what a template may hold, whether it parses) are the service's:
// app/services/templates.server.ts.
import type { StaleSave, TemplateFields, TemplateListRow, TemplateRow } from "./rows";

export type TemplatesStore = {
  /** The tenant's templates (at most MAX_TEMPLATES), last edited first. */
  listTemplates(userId: string): Promise<TemplateListRow[]>;
  /** The tenant's template, or undefined. */
  findTemplate(userId: string, id: string): Promise<TemplateRow | undefined>;
  createTemplate(userId: string, id: string, fields: TemplateFields): Promise<TemplateRow>;
  /**
   * Saves the template's fields when the stored version is `version` (its version grows by one and
   * its draft is cleared); a StaleSave with the stored row when it is not; undefined when the
   * tenant has no such template.
   */
  saveTemplate(
    userId: string,
    id: string,
    version: number,
    fields: Partial<TemplateFields>,
  ): Promise<TemplateRow | StaleSave | undefined>;
  /** Keeps an autosaved draft beside the template (its saved fields stay); false when there is no such template. */
  saveDraft(userId: string, id: string, draft: string | null): Promise<boolean>;
  /** The names of the tenant's campaigns made from the template that are sending or paused (at most `limit`). */
  campaignsSending(userId: string, templateId: string, limit: number): Promise<string[]>;
  /** Deletes the template; false when the tenant has no such template. */
  deleteTemplate(userId: string, id: string): Promise<boolean>;
};
