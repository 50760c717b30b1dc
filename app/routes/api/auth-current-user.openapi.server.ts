// The OpenAPI operations of /api/auth/current_user (./auth-current-user.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/auth/current_user",
    method: "get",
    operationId: "getCurrentUser",
    summary: "Who is signed in",
    description: "No credentials at all is a plain { isAuthenticated: false }; a bad or ended one is a 401.",
    tag: "Auth",
    auth: "optional",
    answers: { 200: { description: "The caller", json: "CurrentUser", headers: ["X-User-Id"] } },
  },
];
