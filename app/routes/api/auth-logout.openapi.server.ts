// The OpenAPI operations of /api/auth/logout (./auth-logout.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/auth/logout",
    method: "post",
    operationId: "logout",
    summary: "Ends the caller's sessions on every device and clears the cookie",
    tag: "Auth",
    auth: "optional",
    answers: { 200: { description: "Logged out (also when no session was open)", json: "SuccessMessage" } },
    errors: [403],
  },
];
