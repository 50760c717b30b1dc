// What the tags domain offers, whichever engine answers (./sqlite.server.ts, ./postgres.server.ts;
// callers use the door, ./store.server.ts): a tenant's tags with their counts, a customer's tags,
// and tagging one customer, a list of them or a segment's whole audience at once. The rules (what a
// tag may be, renames that merge) are the service's: app/services/tags.server.ts, app/lib/tags.ts.
import type { CompiledWhere } from "~/models/segments/audience/rows";
import type { Tx } from "~/models/transaction/store.server";
import type { CustomerTagRow, TagCountRow, TagRow } from "./rows";

export type TagsStore = {
  /** The tenant's tags by name, each with how many customers carry it. */
  listTagsWithCounts(userId: string): Promise<TagCountRow[]>;
  /** How many customers carry the tenant's tag. */
  countTagged(userId: string, tagId: string): Promise<number>;
  /** The tenant's tags of these keys (lower-cased names). */
  findTagsByKey(userId: string, keys: readonly string[]): Promise<TagRow[]>;
  /** The tenant's tags of these names, made when missing (a missing one keeps the spelling given). */
  ensureTags(userId: string, names: readonly string[], tx?: Tx): Promise<TagRow[]>;
  /** One customer's tag names (the tenant's customer), by name. */
  readCustomerTags(userId: string, customerId: string): Promise<string[]>;
  /** The tags of several of the tenant's customers (an export slice, a page). */
  readTagsOfCustomers(userId: string, customerIds: readonly string[]): Promise<CustomerTagRow[]>;
  /** Makes the customer's tags exactly these. */
  replaceCustomerTags(userId: string, customerId: string, tagIds: readonly string[], tx?: Tx): Promise<void>;
  /** Adds the tag to those of these customers the tenant has and who lack it; returns how many got it. */
  tagCustomers(userId: string, tagId: string, customerIds: readonly string[], tx?: Tx): Promise<number>;
  /** Adds the tag to every customer a compiled segment WHERE (of the tenant) matches; returns how many got it. */
  tagAudience(userId: string, tagId: string, where: CompiledWhere): Promise<number>;
  /** Takes the tag off these customers; returns how many had it. */
  untagCustomers(userId: string, tagId: string, customerIds: readonly string[], tx?: Tx): Promise<number>;
  /** Renames a tag (its key follows the name). */
  renameTag(userId: string, tagId: string, name: string, key: string): Promise<void>;
  /** Moves every customer of tag `fromId` to tag `intoId` and deletes `fromId` (a rename onto an existing tag). */
  mergeTag(userId: string, fromId: string, intoId: string): Promise<void>;
  /** Deletes the tag from every customer and the tag itself; false when there was no such tag. */
  deleteTag(userId: string, tagId: string): Promise<boolean>;
};
