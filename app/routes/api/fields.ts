// GET /api/fields: the caller's customer fields, built-in ones first, then its own in their order
// (retired ones too). POST /api/fields: defines a field (201); a name taken is a 409
// (docs/decisions/0041-custom-fields-and-tags.md).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { NewFieldSchema } from "~/schemas/custom-field";
import { withApi } from "~/services/auth.server";
import { createField, fieldDefinitions, toFieldDto } from "~/services/custom-fields.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => (await fieldDefinitions(user.id)).map(toFieldDto));
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const field = await createField(user.id, parseOrThrow(NewFieldSchema, await readJson(request)));
    return jsonResponse(field, { status: 201, headers: { Location: `/api/fields/${field.name}` } });
  });
}
