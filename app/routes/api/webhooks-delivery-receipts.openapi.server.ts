// The OpenAPI operations of /api/webhooks/delivery-receipts (./webhooks-delivery-receipts.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";
import { SIGNATURE_HEADER } from "~/services/sending/receipt-signature.server";

export const operations: Operation[] = [
  {
    path: "/api/webhooks/delivery-receipts",
    method: "post",
    operationId: "receiveDeliveryReceipts",
    summary: "Delivery receipts from the e-mail vendor",
    description: `Signed with HMAC-SHA256 of the raw body with RECEIPTS_SECRET, sent as ${SIGNATURE_HEADER}: sha256=<hex>. The same receipt twice changes nothing.`,
    tag: "Webhooks",
    auth: "signature",
    extraParameters: [
      {
        name: SIGNATURE_HEADER,
        in: "header",
        required: true,
        description: "sha256=<hex HMAC-SHA256 of the raw body with RECEIPTS_SECRET>",
        schema: { type: "string", pattern: "^sha256=[0-9a-fA-F]{64}$" },
      },
    ],
    body: "DeliveryReceipts",
    answers: { 202: { description: "Queued", json: "ReceiptsAccepted" } },
    errors: [400, 401, 413],
  },
];
