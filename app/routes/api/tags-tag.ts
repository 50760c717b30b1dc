// PATCH /api/tags/{tag}: renames a tag everywhere (onto another tag's name, the two become one).
// DELETE /api/tags/{tag}: takes the tag off every customer and deletes it. The tag is URL-encoded in
// the path and compared without case; one the caller does not have is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { TagRenameInputSchema } from "~/schemas/tag";
import { withApi } from "~/services/auth.server";
import { deleteTag, renameTag } from "~/services/tags.server";

export const loader = methodNotAllowed("PATCH", "DELETE");

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "PATCH", "DELETE");
  return withApi(request, async (user) => {
    const tag = params.tag ?? "";
    if (request.method === "DELETE") {
      const { untagged } = await deleteTag(user.id, tag);
      return { success: true, message: "Tag deleted", untagged };
    }
    const input = parseOrThrow(TagRenameInputSchema, await readJson(request));
    return renameTag(user.id, tag, input.name);
  });
}
