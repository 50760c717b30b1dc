// Tags on customers (docs/decisions/0041-custom-fields-and-tags.md): a tenant's tags with their
// counts, a customer's tags, tagging in bulk (a list of customers or a segment's whole audience),
// and renaming or deleting a tag everywhere. Every function takes the tenant first; another
// tenant's tag or customer is "not found". Tags are compared without case (~/lib/tags).
import { ApiError, notFound } from "~/lib/api.server";
import { isId } from "~/lib/id";
import { normaliseTag, readTags, tagKey, tagProblem } from "~/lib/tags";
import { customers } from "~/models/customers/store.server";
import { tags } from "~/models/tags/store.server";
import type { TagRow } from "~/models/tags/rows";
import type { Tx } from "~/models/transaction/store.server";
import { segmentWhere } from "~/services/segments.server";

export type TagDto = { name: string; customers: number };

/** The tenant's tags by name, with how many customers carry each. */
export async function listTags(userId: string): Promise<TagDto[]> {
  return (await tags.listTagsWithCounts(userId)).map((t) => ({ name: t.name, customers: t.customers }));
}

/** A tag from a URL or a form, checked: a 400 that says what is wrong. */
function checkedTag(raw: unknown, field = "tag"): string {
  const problem = tagProblem(raw);
  if (problem) throw new ApiError("bad_request", problem, { [field]: problem });
  return normaliseTag(raw as string);
}

/** `tags: [ … ]` of a create or an update, checked; a 400 naming the bad tag. */
export function checkTagList(raw: unknown): string[] {
  const result = readTags(raw);
  if (!result.ok) throw new ApiError("bad_request", `tags: ${result.message}`, { tags: result.message });
  return result.tags;
}

/** The tenant's tag of this name (any case); 404 when it has none. */
async function findTag(userId: string, name: string): Promise<TagRow> {
  const [tag] = await tags.findTagsByKey(userId, [tagKey(checkedTag(name))]);
  if (!tag) throw notFound("Tag");
  return tag;
}

async function ownCustomer(userId: string, customerId: string): Promise<void> {
  if (!isId(customerId) || !(await customers.customerBelongsToUser(userId, customerId))) throw notFound("Customer");
}

/** One of the tenant's customers' tags, by name; another tenant's customer is a 404. */
export async function customerTagsOf(userId: string, customerId: string): Promise<string[]> {
  await ownCustomer(userId, customerId);
  return tags.readCustomerTags(userId, customerId);
}

/** One customer's tags, by name (the caller knows the customer is the tenant's). */
export async function customerTags(userId: string, customerId: string): Promise<string[]> {
  return tags.readCustomerTags(userId, customerId);
}

/** Makes a customer's tags exactly these names (tags not seen before are made), in the caller's transaction. */
export async function replaceCustomerTags(userId: string, customerId: string, names: string[], tx?: Tx): Promise<void> {
  const rows = await tags.ensureTags(userId, names, tx);
  await tags.replaceCustomerTags(
    userId,
    customerId,
    rows.map((t) => t.id),
    tx,
  );
}

/** Adds tags to one customer; returns the customer's tags after. */
export async function addCustomerTags(userId: string, customerId: string, raw: unknown): Promise<string[]> {
  const names = checkTagList(raw);
  await ownCustomer(userId, customerId);
  for (const tag of await tags.ensureTags(userId, names)) await tags.tagCustomers(userId, tag.id, [customerId]);
  return tags.readCustomerTags(userId, customerId);
}

/** Takes one tag off a customer; returns the customer's tags after. A tag the customer lacks is a 404. */
export async function removeCustomerTag(userId: string, customerId: string, name: string): Promise<string[]> {
  await ownCustomer(userId, customerId);
  const tag = await findTag(userId, name);
  if ((await tags.untagCustomers(userId, tag.id, [customerId])) === 0) throw notFound("Tag");
  return tags.readCustomerTags(userId, customerId);
}

/** Tags customers in bulk: a list of the tenant's customer ids, or every customer of a segment. */
export async function tagInBulk(
  userId: string,
  name: string,
  target: { customerIds: string[] } | { segmentId: string },
): Promise<{ tag: string; tagged: number }> {
  const checked = checkedTag(name);
  if ("segmentId" in target) {
    // The segment first: another tenant's, or one that is gone, is a 404 that leaves no new tag behind.
    const where = await segmentWhere(userId, target.segmentId);
    const [tag] = await tags.ensureTags(userId, [checked]);
    return { tag: tag.name, tagged: await tags.tagAudience(userId, tag.id, where) };
  }
  const [tag] = await tags.ensureTags(userId, [checked]);
  const ids = target.customerIds.filter(isId);
  return { tag: tag.name, tagged: await tags.tagCustomers(userId, tag.id, ids) };
}

/** Takes a tag off several customers at once (a list selection). */
export async function untagInBulk(userId: string, name: string, customerIds: string[]): Promise<{ untagged: number }> {
  const tag = await findTag(userId, name);
  return { untagged: await tags.untagCustomers(userId, tag.id, customerIds.filter(isId)) };
}

/**
 * Renames a tag everywhere. Onto the name of another of the tenant's tags (any case) the two
 * become one: that tag's customers gain this one's, and this tag goes.
 */
export async function renameTag(userId: string, name: string, newName: unknown): Promise<TagDto> {
  const tag = await findTag(userId, name);
  const next = checkedTag(newName, "name");
  const [other] = await tags.findTagsByKey(userId, [tagKey(next)]);
  if (other && other.id !== tag.id) {
    await tags.mergeTag(userId, tag.id, other.id);
    return { name: other.name, customers: await tags.countTagged(userId, other.id) };
  }
  await tags.renameTag(userId, tag.id, next, tagKey(next));
  return { name: next, customers: await tags.countTagged(userId, tag.id) };
}

/** Deletes a tag from every customer; returns how many carried it. */
export async function deleteTag(userId: string, name: string): Promise<{ untagged: number }> {
  const tag = await findTag(userId, name);
  const count = await tags.countTagged(userId, tag.id);
  if (!(await tags.deleteTag(userId, tag.id))) throw notFound("Tag");
  return { untagged: count };
}
