// POST /api/templates/{id}/duplicate: a copy of a template (the caller's own, named "Copy of …", or
// a starter, under its own name) as a new template of the caller's (201).
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { duplicateTemplate } from "~/services/templates.server";

export const loader = methodNotAllowed("POST");

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const template = await duplicateTemplate(user.id, params.id ?? "");
    return jsonResponse(template, { status: 201, headers: { Location: `/api/templates/${template.id}` } });
  });
}
