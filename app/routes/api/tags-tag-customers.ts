// POST /api/tags/{tag}/customers: tags customers in bulk, `{ customerIds: [...] }` or `{ segmentId }`
// (everyone the segment matches now); the tag is made when new. DELETE: takes the tag off
// `{ customerIds: [...] }`. Ids that are not the caller's customers are skipped; a segment that is
// not the caller's is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { TagCustomersInputSchema, UntagCustomersInputSchema } from "~/schemas/tag";
import { withApi } from "~/services/auth.server";
import { tagInBulk, untagInBulk } from "~/services/tags.server";

export const loader = methodNotAllowed("POST", "DELETE");

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "POST", "DELETE");
  return withApi(request, async (user) => {
    const tag = params.tag ?? "";
    if (request.method === "DELETE") {
      const input = parseOrThrow(UntagCustomersInputSchema, await readJson(request));
      return untagInBulk(user.id, tag, input.customerIds);
    }
    return tagInBulk(user.id, tag, parseOrThrow(TagCustomersInputSchema, await readJson(request)));
  });
}
