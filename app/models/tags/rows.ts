// The tenant's tags and the customers carrying them as stored (Tag, CustomerTag;
// docs/decisions/0041-custom-fields-and-tags.md). A tag is compared without case: `key` is its name
// lower-cased, unique per tenant.
import type { CompiledWhere, Dialect } from "~/models/segments/audience/rows";

/** One tag of a tenant. */
export type TagRow = { id: string; name: string; key: string };

/** A tag with how many customers carry it (the tags page). */
export type TagCountRow = TagRow & { customers: number };

/** One customer's tag (several customers' tags are read at once for an export slice). */
export type CustomerTagRow = { customerId: string; name: string };

/** A placeholder of an engine's dialect: `?` on SQLite, `$n` on PostgreSQL. */
export type Placeholder = (n: number) => string;

/** One customer's tags, by name: the same statement on either engine. */
export const customerTagsSql = (p: Placeholder) =>
  `SELECT t."name" FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId"
   WHERE ct."customerId" = ${p(1)} AND ct."userId" = ${p(2)} ORDER BY t."key"`;

/**
 * Tags every customer of the tenant a compiled segment WHERE matches, skipping those who carry the
 * tag already. The tag is the SELECT's first value: SQLite's `?` are bound in the order they
 * appear, so its id goes first there; PostgreSQL's WHERE is numbered from $1, so it goes last.
 */
export function tagAudienceSql(where: CompiledWhere, tagId: string, dialect: Dialect): CompiledWhere {
  const sqlite = dialect === "sqlite";
  return {
    sql: `INSERT INTO "CustomerTag" ("tagId", "customerId", "userId")
          SELECT ${sqlite ? "?" : `$${where.params.length + 1}`}, "id", "userId" FROM "Customer" WHERE ${where.sql}
          ON CONFLICT DO NOTHING`,
    params: sqlite ? [tagId, ...where.params] : [...where.params, tagId],
  };
}
