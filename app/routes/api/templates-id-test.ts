// POST /api/templates/{id}/test: the template sent to up to five addresses through the configured
// channel, marked as a test and counted nowhere (app/services/templates/test-send.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { TemplateTestSchema } from "~/schemas/template";
import { withApi } from "~/services/auth.server";
import { sendTemplateTest } from "~/services/templates/test-send.server";

export const loader = methodNotAllowed("POST");

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(TemplateTestSchema, await readJson(request));
    return jsonResponse(await sendTemplateTest(user.id, params.id ?? "", input));
  });
}
