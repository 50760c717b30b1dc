// The OpenAPI operations of /api/auth/profile (./auth-profile.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, putAndPatch } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/auth/profile",
    method: "get",
    operationId: "getProfile",
    summary: "The six profile fields of the caller",
    tag: "Auth",
    answers: { 200: { description: "The profile", json: "Profile" } },
  },
  ...putAndPatch({
    path: "/api/auth/profile",
    operationId: "updateProfile",
    summary: "Changes the caller's profile",
    tag: "Auth",
    body: "ProfileInput",
    answers: { 200: { description: "The updated user", json: "PublicUser" } },
    errors: [400, 413],
  }),
];
