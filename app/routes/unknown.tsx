// Any unknown path redirects to / (docs/rules.md#routes-and-screens).
import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { keepAllowHeader, methodNotAllowedResponse } from "~/lib/api.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export function loader() {
  throw redirect("/");
}

/**
 * This address takes GET only: any other method is a 405 that says so. Thrown, not returned: a
 * returned answer would be followed by the loader above, whose redirect would replace it.
 */
export function action({ request }: ActionFunctionArgs): never {
  throw methodNotAllowedResponse(request, ["GET"]);
}

export default function Unknown() {
  return null;
}
