// The OpenAPI operations of /api/suppressions (./suppressions.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation, PAGED_HEADERS } from "~/lib/openapi/operation";
import { SuppressionListQuerySchema } from "~/schemas/api-inputs.server";

export const operations: Operation[] = [
  {
    path: "/api/suppressions",
    method: "get",
    operationId: "listSuppressions",
    summary: "A page of the caller's suppression list (addresses that get no campaign e-mail), newest first",
    description: "q keeps the addresses containing it (without case).",
    tag: "Suppressions",
    query: SuppressionListQuerySchema,
    answers: { 200: { description: "Suppressed addresses", json: ["Suppression"], headers: PAGED_HEADERS } },
    errors: [400],
  },
  {
    path: "/api/suppressions",
    method: "post",
    operationId: "addSuppressions",
    summary: "Suppresses 1 to 10,000 addresses (reason: manual)",
    description:
      "Addresses are checked as a customer's e-mail is, trimmed, lower-cased and de-duplicated. One that is not an address refuses the request (400, naming it) and adds nothing; one on the list already stays as it was.",
    tag: "Suppressions",
    body: "SuppressionsInput",
    answers: { 200: { description: "What was added", json: "SuppressionsAdded" } },
    errors: [400, 413],
  },
];
