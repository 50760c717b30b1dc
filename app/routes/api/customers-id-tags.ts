// GET /api/customers/{id}/tags: the customer's tags. POST: adds `{ tags: [...] }` (new tags are made).
// DELETE /api/customers/{id}/tags/{tag} is ./customers-id-tags-tag.ts. Another tenant's customer is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { TagsInputSchema } from "~/schemas/tag";
import { withApi } from "~/services/auth.server";
import { addCustomerTags, customerTagsOf } from "~/services/tags.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => ({ tags: await customerTagsOf(user.id, params.id ?? "") }));
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(TagsInputSchema, await readJson(request));
    return { tags: await addCustomerTags(user.id, params.id ?? "", input.tags) };
  });
}
