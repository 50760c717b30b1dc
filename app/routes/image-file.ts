// /images/TOKEN.EXT: an uploaded image, as mail clients and the editor fetch it
// (app/services/images.server.ts). Public (a mail client has no session): the sealed token is all
// that is checked, and it names one image of one tenant. An image never changes under its address,
// so it is cached for a year; it is served as an image only, never sniffed into anything else.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { publicImage } from "~/services/images.server";

const FILE = /^([A-Za-z0-9_-]+)\.([a-z]+)$/;

export async function loader({ request, params }: LoaderFunctionArgs) {
  allowMethods(request, "GET");
  const [, token = "", extension = ""] = FILE.exec(params.file ?? "") ?? [];
  const image = token ? await publicImage(token, extension) : null;
  if (!image)
    return new Response("No such image: check that the whole address was copied.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  const headers = {
    "Content-Type": image.contentType,
    "Content-Length": String(image.bytes.length),
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: image.etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  if (request.headers.get("If-None-Match") === image.etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image.bytes), { status: 200, headers });
}

export const action = methodNotAllowed("GET");
