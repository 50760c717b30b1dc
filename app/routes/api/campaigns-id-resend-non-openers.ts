// POST /api/campaigns/{id}/resend-non-openers with { subject, name?, message? }: makes the draft
// that resends a completed campaign to the recipients who got it and did not open it (201, the
// draft; Location its address). Launching that draft (PUT /api/campaigns/{draft} with status
// Active, or the wizard) sends to the non-openers of that moment, minus the suppressed. Another
// tenant's or an unknown campaign is a 404, one that is not Completed a 409, one with nobody left
// to resend to a 422 (docs/rules.md#resend-to-non-openers).
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { ResendNonOpenersSchema } from "~/schemas/campaign-resend";
import { withApi } from "~/services/auth.server";
import { createResendDraft } from "~/services/campaign-resend.server";

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(ResendNonOpenersSchema, await readJson(request));
    const draft = await createResendDraft(user.id, params.id ?? "", input);
    return jsonResponse(draft, { status: 201, headers: { Location: `/api/campaigns/${draft.id}` } });
  });
}

export const loader = methodNotAllowed("POST");
