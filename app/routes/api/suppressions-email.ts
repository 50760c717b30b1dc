// GET /api/suppressions/{email}: one address's entry on the caller's suppression list.
// DELETE /api/suppressions/{email}: takes it off the list (the customer gets campaigns again) and
// records the resubscription. The address is URL-encoded in the path (a%40x.in or a@x.in) and
// compared without case; one that is not on the list (or is another tenant's entry, or no address
// at all) is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, allowMethods } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { resubscribe, suppressionOf } from "~/services/suppressions.server";

const notOnList = (email: string) =>
  new ApiError("not_found", `${email.trim() || "That address"} is not on the suppression list`);

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const email = params.email ?? "";
    const entry = await suppressionOf(user.id, email);
    if (!entry) throw notOnList(email);
    return entry;
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "DELETE");
  return withApi(request, async (user) => {
    const email = params.email ?? "";
    if (!(await resubscribe(user.id, email))) throw notOnList(email);
    return { success: true, message: "Address removed from the suppression list" };
  });
}
