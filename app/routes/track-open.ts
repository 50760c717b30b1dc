// /o/TOKEN: the open pixel of one recipient's message (app/services/tracking.server.ts). Every GET or
// HEAD answers the same 43-byte transparent GIF, whatever the token, so a mail client never shows a
// broken image; only a token this server sealed records an open (a machine's for HEAD, bots and
// Apple's privacy proxy). No session, no cookie; never cached, indexed or sent on as a Referer; the
// server's log writes the path as /o/[token] (server/app.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { TRACKING_HEADERS, TRANSPARENT_GIF, recordOpen } from "~/services/tracking.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  allowMethods(request, "GET");
  await recordOpen(params.token ?? "", {
    method: request.method,
    userAgent: request.headers.get("User-Agent"),
    ip: context.clientIp ?? null,
  });
  return new Response(request.method === "HEAD" ? null : TRANSPARENT_GIF, {
    status: 200,
    headers: { ...TRACKING_HEADERS, "Content-Type": "image/gif", "Content-Length": String(TRANSPARENT_GIF.length) },
  });
}

export const action = methodNotAllowed("GET");
