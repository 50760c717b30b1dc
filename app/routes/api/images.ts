// GET /api/images: the caller's uploaded images, newest first, each with its public address.
// POST /api/images: uploads one (the file's bytes as the body, sent as image/png, image/jpeg or
// image/gif; ?name= names it): 201 with the image, or 200 with the one already kept when the same
// file was uploaded before. What is not such an image, or is over 1 MB, is a 4xx saying what to do
// (app/services/images.server.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse } from "~/lib/api.server";
import { imageRequestBody } from "~/lib/image-request.server";
import { withApi } from "~/services/auth.server";
import { listImages, uploadImage } from "~/services/images.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => ({ images: await listImages(user.id) }));
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const name = new URL(request.url).searchParams.get("name") ?? "";
    const { image, created } = await uploadImage(user.id, await imageRequestBody(request), name);
    return jsonResponse(image, { status: created ? 201 : 200, headers: { Location: `/api/images/${image.id}` } });
  });
}
