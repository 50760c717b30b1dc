// The OpenAPI operations of /api/customers/import (./customers-import.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { IMPORT_FIELDS } from "~/lib/customer-csv";
import { type Operation } from "~/lib/openapi/operation";
import { CustomerImportQuerySchema } from "~/schemas/api-inputs.server";

export const operations: Operation[] = [
  {
    path: "/api/customers/import",
    method: "post",
    operationId: "importCustomers",
    summary: "Imports a CSV file (the body), upserting on e-mail",
    description:
      "Columns are guessed from the header row; map.<field>=<0-based column> overrides the guess. A column named for a field (its name or label, any case) sets that field; a tags column (tags separated by ;) makes each customer's tags the row's, an empty cell none. A bad field value makes its row a bad row. Columns nothing reads are listed in unknownColumns; createFields=true makes a text field of each and imports it. Bad rows are listed with their line and reason; a malformed file is a 422 and writes nothing.",
    tag: "Customers",
    query: CustomerImportQuerySchema,
    extraParameters: IMPORT_FIELDS.map((field) => ({
      name: `map.${field}`,
      in: "query",
      required: false,
      description: `The 0-based column that holds ${field}`,
      schema: { type: "integer", minimum: 0 },
    })),
    body: { media: "text/csv", description: "The CSV file: a header row, then one customer a line" },
    answers: { 200: { description: "What was imported", json: "ImportResult" } },
    errors: [400, 413, 422],
  },
];
