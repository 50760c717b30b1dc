// GET /api/templates/{id}/check: what to fix before the template is sent, each problem with where
// it is: tags that name nothing, images without alt text, links that are not absolute or still
// examples, a message Gmail would clip, an empty text part, no postal address. An empty list: none.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { previewTemplate } from "~/services/templates.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => ({ problems: (await previewTemplate(user.id, params.id ?? "")).problems }));
}

export const action = methodNotAllowed("GET");
