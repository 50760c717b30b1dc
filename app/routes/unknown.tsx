// Any unknown path redirects to / (docs/rules.md#routes-and-screens).
import { methodNotAllowed } from "~/lib/api.server";
import { redirect } from "@remix-run/node";

export function loader() {
  throw redirect("/");
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");

export default function Unknown() {
  return null;
}
