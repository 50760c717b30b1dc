// The OpenAPI operations of /api/auth/google/callback (./auth-google-callback.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/auth/google/callback",
    method: "get",
    operationId: "googleSignInCallback",
    summary: "Where Google sends the browser back: opens a session and redirects to /auth/callback?token=…",
    tag: "Auth",
    auth: "none",
    answers: { 302: { description: "To /auth/callback with a token, or to /login with an error" } },
    errors: [],
  },
];
