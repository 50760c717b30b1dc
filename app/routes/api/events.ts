// POST /api/events: events from the shop's own systems (`{ events: [{ id, name, customerId | email,
// properties?, occurredAt?, customer? }], createCustomers? }`, up to 1,000), each kept once per its
// id: a repeat answers as a duplicate and keeps nothing (app/services/events.server.ts). GET: the
// caller's events, newest first (`?name=`, `?customerId=`, `?limit=`).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { EventsInputSchema, EventsQuerySchema } from "~/schemas/events";
import { withApi } from "~/services/auth.server";
import { listEvents, recordEvents } from "~/services/events.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const params = new URL(request.url).searchParams;
    const query = parseOrThrow(EventsQuerySchema, {
      name: params.get("name") ?? undefined,
      customerId: params.get("customerId") ?? undefined,
      limit: params.get("limit") ?? undefined,
    });
    return { events: await listEvents(user.id, query) };
  });
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) =>
    recordEvents(user.id, parseOrThrow(EventsInputSchema, await readJson(request))),
  );
}
