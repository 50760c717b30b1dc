// The OpenAPI operations of /api/templates/{id}/test (./templates-id-test.ts), assembled into GET
// /api/openapi.json by ./openapi-json.ts. Beside the route rather than exported by it: a route module's
// exports other than loader, action and headers reach the browser's bundle.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/templates/{id}/test",
    method: "post",
    operationId: "sendTemplateTest",
    summary:
      "Sends the template to up to five addresses through the configured channel, its subject marked [Test], counted nowhere",
    tag: "Templates",
    body: "TemplateTestInput",
    answers: { 200: { description: "What the channel answered for each address", json: "TestSendResult" } },
    errors: [400, 404, 413, 422, 429, 503],
  },
];
