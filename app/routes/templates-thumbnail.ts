// /templates/:id/thumbnail: a template's HTML for a customer with empty fields, for the small
// preview of each row of the Templates list (app/components/templates/template-thumbnail.tsx puts
// it in a sandboxed frame). Signed-in; another tenant's template is a 404. It changes with the
// template's version and the brand, which its ETag names: a list shown again costs no render.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, ApiError, methodNotAllowed } from "~/lib/api.server";
import { requireUser } from "~/services/auth.server";
import { getBrand } from "~/services/brand.server";
import { getTemplate, renderTemplateFor } from "~/services/templates.server";

const HTML_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy":
    "sandbox; default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; font-src https: data:",
  "X-Robots-Tag": "noindex",
} as const;

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  allowMethods(request, "GET");
  const user = await requireUser(request);
  const id = params.id ?? "";
  try {
    const [template, brand] = await Promise.all([getTemplate(user.id, id), getBrand(user.id)]);
    const etag = `"${template.id}-${template.version}-${template.updatedAt}-${brand.updatedAt ?? "default"}"`;
    const caching = { ETag: etag, "Cache-Control": "private, max-age=60" };
    if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers: caching });
    const { html } = await renderTemplateFor(user.id, id, { sample: { customer: {}, last_order: null } });
    return new Response(html, { status: 200, headers: { ...HTML_HEADERS, ...caching } });
  } catch (error) {
    if (error instanceof ApiError) return text(error.status, error.message);
    throw error;
  }
}

export const action = methodNotAllowed("GET");
