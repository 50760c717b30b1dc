// PUT /api/templates/{id}/draft: keeps what an editor holds as the template's draft, whatever it
// holds (half-typed tags included): `{ name, subject, preheader, content, text, version }` as typed,
// the version being the one it was typed on; answers `{ at }`. DELETE: forgets the draft. The
// template itself changes only when it is saved (PUT /api/templates/{id}).
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { discardTemplateDraft, saveTemplateDraft } from "~/services/templates.server";
import { TemplateDraftSchema } from "~/schemas/template";

export const loader = methodNotAllowed("PUT", "DELETE");

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "PUT", "DELETE");
  return withApi(request, async (user) => {
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      await discardTemplateDraft(user.id, id);
      return { success: true, message: "Draft discarded" };
    }
    const draft = await saveTemplateDraft(user.id, id, parseOrThrow(TemplateDraftSchema, await readJson(request)));
    return { at: draft.at };
  });
}
