// Local sign-in for programs (see ~/services/local-sign-in.server): success redirects to
// /auth/callback with the token in the address, as the specification has it. /login's form posts through its own
// action; POST /auth/local answers programs with the /api's JSON errors (400, 401, 429).
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { allowMethods, ApiError, errorResponse, readJson } from "~/lib/api.server";
import { ensureLocalAuth, localSignIn, readForm } from "~/services/local-sign-in.server";

export async function loader() {
  throw redirect("/login");
}

const CODES = { 400: "bad_request", 401: "unauthorized", 403: "forbidden", 429: "rate_limited" } as const;

/** POST /auth/local with a form or a JSON body: the session redirect, or a JSON error with its status. */
export async function action({ request, context }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  ensureLocalAuth();
  try {
    const type = request.headers.get("Content-Type") ?? "";
    const form = type.includes("application/json")
      ? jsonForm(await readJson(request, 16_000))
      : await readForm(request);
    const result = await localSignIn(request, context, form, "address");
    if ("response" in result) return result.response;
    const { status, message, fields } = result.refusal;
    const named = Object.fromEntries(Object.entries(fields ?? {}).filter((e): e is [string, string] => Boolean(e[1])));
    return errorResponse(new ApiError(CODES[status], message, Object.keys(named).length ? named : undefined));
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}

/** A JSON object of strings as the form fields a browser would send. */
function jsonForm(body: unknown): URLSearchParams {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new ApiError("bad_request", "Send a JSON object with email and password");
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) if (typeof value === "string") form.set(key, value);
  return form;
}
