// /v/TOKEN: one recipient's copy of a campaign's message in the browser (app/services/view-in-browser.server.ts).
// The message's own HTML, served in a sandbox (a unique origin: no script runs, no cookie of this
// product is reachable from it), never cached, indexed or sent on as a Referer. An unknown token is
// a 404 page that says what to do.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { escapeHtml } from "~/lib/email-body";
import { messageInBrowser } from "~/services/view-in-browser.server";

const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex",
  "Content-Security-Policy":
    "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'",
} as const;

export const NOT_FOUND =
  "This link to the message is not valid. Check that you opened the whole link from the e-mail; the message itself still holds everything it said.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  allowMethods(request, "GET");
  const message = await messageInBrowser(params.token ?? "");
  if (!message) {
    const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Message not found</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;"><h1>Message not found</h1><p>${escapeHtml(NOT_FOUND)}</p></body></html>`;
    return new Response(page, { status: 404, headers: HEADERS });
  }
  return new Response(message.html, { status: 200, headers: HEADERS });
}

export const action = methodNotAllowed("GET");
