// GET /api/flows/{id}: one flow with its figures per step. PUT: replaces the whole flow (a changed
// flow someone entered becomes a new version; live only when it can run). DELETE: deletes it with
// its people's places and its send steps' logs. Another tenant's flow is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { FlowInputSchema } from "~/schemas/flow";
import { withApi } from "~/services/auth.server";
import { deleteFlow, getFlow, updateFlow } from "~/services/flows/flows.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => getFlow(user.id, params.id ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "DELETE");
  return withApi(request, async (user) => {
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      await deleteFlow(user.id, id);
      return { success: true, message: "Flow deleted" };
    }
    return updateFlow(user.id, id, parseOrThrow(FlowInputSchema, await readJson(request)));
  });
}
