// /c/TOKEN: a tracked link of one recipient's message (app/services/tracking.server.ts). A token this
// server sealed records a click (a machine's for HEAD and bots) and answers 302 to the link's
// original address, which travels sealed in the token: only addresses that were in a message can be
// reached, and a token altered in any character is a small 404 page that records nothing and
// redirects nowhere. No session, no cookie; never cached, indexed or sent on as a Referer; the
// server's log writes the path as /c/[token] (server/app.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { escapeHtml } from "~/lib/email-body";
import { TRACKING_HEADERS, recordClick } from "~/services/tracking.server";

const LINK_NOT_VALID =
  "This link is not valid. Check that you opened the whole link from the e-mail, or open the link again from the message.";

/** The address as a Location header carries it: characters outside printable ASCII percent-encoded (UTF-8). */
const locationOf = (url: string) => url.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));

const notFoundPage =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="robots" content="noindex">\n' +
  "<title>Link not valid</title>\n</head>\n" +
  '<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2937;line-height:1.5;">\n' +
  `<h1 style="font-size:1.25rem;">Link not valid</h1>\n<p>${escapeHtml(LINK_NOT_VALID)}</p>\n</body>\n</html>\n`;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  allowMethods(request, "GET");
  const url = await recordClick(params.token ?? "", {
    method: request.method,
    userAgent: request.headers.get("User-Agent"),
    ip: context.clientIp ?? null,
  });
  if (url === null) {
    return new Response(request.method === "HEAD" ? null : notFoundPage, {
      status: 404,
      headers: { ...TRACKING_HEADERS, "Content-Type": "text/html; charset=utf-8" },
    });
  }
  return new Response(null, { status: 302, headers: { ...TRACKING_HEADERS, Location: locationOf(url) } });
}

export const action = methodNotAllowed("GET");
