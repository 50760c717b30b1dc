// GET /api/templates: the caller's templates, last edited first, then the starter templates
// (`?search=` matches a name or subject). POST /api/templates: makes a template (201); one that
// does not parse is a 422 naming the problem and where (docs/decisions/0043-templates-and-merge-tags.md).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { TemplateInputSchema } from "~/schemas/template";
import { withApi } from "~/services/auth.server";
import { createTemplate, listTemplates } from "~/services/templates.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const search = new URL(request.url).searchParams.get("search") ?? "";
    return { templates: await listTemplates(user.id, search.slice(0, 100)) };
  });
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const template = await createTemplate(user.id, parseOrThrow(TemplateInputSchema, await readJson(request)));
    return jsonResponse(template, { status: 201, headers: { Location: `/api/templates/${template.id}` } });
  });
}
