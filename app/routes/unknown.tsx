// Any unknown path redirects to / (spec §2).
import { redirect } from "@remix-run/node";

export function loader() {
  throw redirect("/");
}

export default function Unknown() {
  return null;
}
