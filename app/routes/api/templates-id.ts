// GET /api/templates/{id}: one template (the caller's own or a starter). PUT: saves the whole
// template; with `version`, only over that version (a save from an older copy is a 409). DELETE:
// deletes it. A starter template cannot be changed or deleted (400); another tenant's is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { TemplateInputSchema } from "~/schemas/template";
import { withApi } from "~/services/auth.server";
import { deleteTemplate, getTemplate, saveTemplate } from "~/services/templates.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => getTemplate(user.id, params.id ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "DELETE");
  return withApi(request, async (user) => {
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      await deleteTemplate(user.id, id);
      return { success: true, message: "Template deleted" };
    }
    return saveTemplate(user.id, id, parseOrThrow(TemplateInputSchema, await readJson(request)));
  });
}
