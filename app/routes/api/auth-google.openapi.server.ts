// The OpenAPI operations of /api/auth/google (./auth-google.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, withPostTwin } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  ...withPostTwin({
    path: "/api/auth/google",
    method: "get",
    operationId: "startGoogleSignIn",
    summary: "Starts Google sign-in: redirects the browser to Google's consent screen",
    tag: "Auth",
    auth: "none",
    answers: {
      302: { description: "To Google, or to /login?error=access_denied when Google sign-in is off" },
      429: { description: "Too many sign-in attempts from this address", media: "text/plain" },
    },
    errors: [],
  }),
];
