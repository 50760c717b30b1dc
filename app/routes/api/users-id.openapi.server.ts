// The OpenAPI operations of /api/users/{id} (./users-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, putAndPatch } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/users/{id}",
    method: "get",
    operationId: "getUser",
    summary: "The caller's own user (any other id is a 404)",
    tag: "Auth",
    answers: { 200: { description: "The user", json: "PublicUser" } },
    errors: [404],
  },
  ...putAndPatch({
    path: "/api/users/{id}",
    operationId: "updateUser",
    summary: "Changes the caller's profile (the fallback of PUT /api/auth/profile)",
    tag: "Auth",
    body: "ProfileInput",
    answers: { 200: { description: "The updated user", json: "PublicUser" } },
    errors: [400, 404, 413],
  }),
];
