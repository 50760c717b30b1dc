// Any unknown path redirects to / (docs/rules.md#routes-and-screens).
import { redirect } from "@remix-run/node";

export function loader() {
  throw redirect("/");
}

export default function Unknown() {
  return null;
}
