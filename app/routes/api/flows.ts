// GET /api/flows: the caller's flows, newest first, each with its people and revenue. POST: makes a
// flow (`{ name, trigger, steps, goal?, reentry?, status? }`); live at once only when it can run
// (a 422 saying why otherwise). docs/decisions/0046-flows.md.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { FlowInputSchema } from "~/schemas/flow";
import { withApi } from "~/services/auth.server";
import { createFlow, listFlows } from "~/services/flows/flows.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => ({ flows: await listFlows(user.id) }));
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => createFlow(user.id, parseOrThrow(FlowInputSchema, await readJson(request))));
}
