// What the customer service tests (customers.server.test.ts, customer-search.server.test.ts) share:
// a customer as /api takes one (Priya Sharma, an e-mail no other has), and a call of a route
// module's loader or action as the signed-in user, its JSON answer read back.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { CustomerApiSchema } from "~/schemas/customer";
import { issueToken } from "~/services/token.server";

export const input = (over: Record<string, unknown> = {}) =>
  CustomerApiSchema.parse({
    firstName: "Priya",
    lastName: "Sharma",
    email: `priya${Math.random().toString(36).slice(2)}@example.com`,
    ...over,
  });

export async function call(
  handler: (args: LoaderFunctionArgs) => Promise<unknown>,
  user: { id: string },
  path: string,
  init: { method?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const request = new Request(`http://localhost${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${await issueToken(user.id)}`, "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const response = (await handler({
    request,
    params: init.params ?? {},
    context: {},
  } as LoaderFunctionArgs)) as Response;
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
