// POST /api/templates/{id}/render: the template as one of the caller's customers (`{ customerId }`)
// or sample values (`{ sample: { customer, last_order } }`) would receive it: `{ subject, html,
// text }`, rendered by the code that renders every message sent (the links are examples here).
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { TemplateRenderSchema } from "~/schemas/template";
import { withApi } from "~/services/auth.server";
import { renderTemplateFor } from "~/services/templates.server";

export const loader = methodNotAllowed("POST");

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) =>
    renderTemplateFor(user.id, params.id ?? "", parseOrThrow(TemplateRenderSchema, await readJson(request))),
  );
}
