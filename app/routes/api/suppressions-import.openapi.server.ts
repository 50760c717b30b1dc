// The OpenAPI operations of /api/suppressions/import (./suppressions-import.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/suppressions/import",
    method: "post",
    operationId: "importSuppressions",
    summary: "Imports a CSV file (the body) of addresses to suppress",
    description:
      "The header row names the address column: email, Email Address (Mailchimp), e-mail, … (without case). A reason column (unsubscribed, hard-bounced, complained, manual or their labels) and a campaign column are read when present. Bad rows are listed with their line; a malformed file (no email column, not CSV) is a 422 and writes nothing.",
    tag: "Suppressions",
    body: { media: "text/csv", description: "The CSV file: a header row, then one address a line" },
    answers: { 200: { description: "What was imported", json: "SuppressionImportResult" } },
    errors: [400, 413, 422],
  },
];
