// Tag payloads of /api (docs/decisions/0041-custom-fields-and-tags.md): tags to add to a customer,
// customers to tag or untag in bulk (by ids, or a segment's whole audience), a tag's new name. What
// a tag may be is checked by the service (~/lib/tags), which names the bad tag.
import { z } from "zod";

const ids = z
  .array(z.string({ message: "Each customer id must be text" }), { message: "customerIds must be a list of ids" })
  .min(1, "customerIds must name at least one customer")
  .max(10_000, "At most 10,000 customers at once (tag a segment for more)");

/** POST /api/customers/{id}/tags. */
export const TagsInputSchema = z.object({
  tags: z.array(z.string({ message: "Each tag must be text" }), { message: "tags must be a list of text" }),
});

/** POST /api/tags/{tag}/customers: some customers by id, or everyone in a segment. */
export const TagCustomersInputSchema = z.union(
  [
    z.strictObject({ customerIds: ids }),
    z.strictObject({ segmentId: z.string({ message: "segmentId must be text" }) }),
  ],
  { message: "Send { customerIds: [...] } or { segmentId }" },
);

/** DELETE /api/tags/{tag}/customers: takes the tag off these customers. */
export const UntagCustomersInputSchema = z.strictObject({ customerIds: ids });

/** PATCH /api/tags/{tag}: a new name (onto another tag's name, the two become one). */
export const TagRenameInputSchema = z.object({ name: z.string({ message: "name is required" }) });
