// The forms that tag customers on the screens: the Tags screen's rename and delete, the customer
// form's and page's tags (several, separated by commas), a segment's "Tag everyone" and the
// customer list's "Tag selected". What a tag may be is ~/lib/tags' rule, said in its words, in the
// browser as it is typed and on the server.
import { z } from "zod";
import { MAX_TAG_LENGTH, normaliseTag, readTags, tagProblem } from "~/lib/tags";

export const TAG_FORM_MESSAGES = {
  empty: "A tag must not be empty",
  noneSelected: "Select the customers to tag first",
} as const;

/** Tags typed in one input, separated by commas ("VIP, trade fair 2026"); blanks left out. */
export function tagsFromText(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map(normaliseTag)
    .filter((t) => t !== "");
}

/** One tag typed (a new name, a tag to add): its problem under the input, else the tag as written. */
export const OneTagSchema = z
  .string({ message: TAG_FORM_MESSAGES.empty })
  .max(1000, `A tag must be at most ${MAX_TAG_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const problem = tagProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform(normaliseTag);

/** Tags typed separated by commas: the first bad one named under the input. Empty is no tags. */
export const TagListTextSchema = z
  .string()
  .max(10_000, "Too many tags at once")
  .optional()
  .superRefine((value, ctx) => {
    const result = readTags(tagsFromText(value));
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.message });
  });

/** Several tags to add (the customer page's Add form): at least one. */
export const AddTagsFormSchema = z.object({
  intent: z.literal("tag"),
  tags: TagListTextSchema.refine((value) => tagsFromText(value).length > 0, TAG_FORM_MESSAGES.empty),
});

/** The tag a form acts on (as the page sent it; the service finds it, without case). */
const tagNamed = z.string().min(1).max(1000);

/** A tag taken off one customer (the chip's remove button). */
export const UntagFormSchema = z.object({ intent: z.literal("untag"), tag: tagNamed });

/** The Tags screen's rename: the tag and its new name. */
export const RenameTagFormSchema = z.object({
  intent: z.literal("rename"),
  tag: tagNamed,
  name: OneTagSchema,
});

/** The Tags screen's delete confirmation. */
export const DeleteTagFormSchema = z.object({ intent: z.literal("delete"), tag: tagNamed });

/** A segment's "Tag everyone in this segment". */
export const SegmentTagFormSchema = z.object({ intent: z.literal("tag"), tag: OneTagSchema });

/** The customer list's "Tag selected": a tag and the rows ticked. */
export const BulkTagFormSchema = z.object({
  intent: z.literal("tag"),
  tag: OneTagSchema,
  customerIds: z
    .array(z.string().max(100), { message: TAG_FORM_MESSAGES.noneSelected })
    .min(1, TAG_FORM_MESSAGES.noneSelected)
    .max(1000),
  back: z.string().max(2000).optional(),
});
