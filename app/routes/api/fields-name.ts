// GET /api/fields/{name}: one field. PATCH: changes its label, choices, default, order or whether it
// is retired (its name and type never change). DELETE: deletes it and every customer's value of it.
// Built-in fields cannot be changed or deleted (400); another tenant's field is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { FieldChangeSchema } from "~/schemas/custom-field";
import { withApi } from "~/services/auth.server";
import { deleteField, getField, toFieldDto, updateField } from "~/services/custom-fields.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => toFieldDto(await getField(user.id, params.name ?? "")));
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PATCH", "DELETE");
  return withApi(request, async (user) => {
    const name = params.name ?? "";
    if (request.method === "DELETE") {
      const { valuesDeleted } = await deleteField(user.id, name);
      return { success: true, message: "Field deleted", valuesDeleted };
    }
    return updateField(user.id, name, parseOrThrow(FieldChangeSchema, await readJson(request)));
  });
}
