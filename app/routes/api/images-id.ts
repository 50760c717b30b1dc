// GET /api/images/{id}: one of the caller's images (without its bytes: its `url` serves them).
// DELETE: deletes it, unless a template or a campaign still shows it (409 naming them); another
// tenant's image is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { deleteImage, getImage } from "~/services/images.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => getImage(user.id, params.id ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "DELETE");
  return withApi(request, async (user) => {
    await deleteImage(user.id, params.id ?? "");
    return { success: true, message: "Image deleted" };
  });
}
