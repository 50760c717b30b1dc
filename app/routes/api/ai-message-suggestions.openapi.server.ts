// The OpenAPI operations of /api/ai/message-suggestions (./ai-message-suggestions.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/ai/message-suggestions",
    method: "post",
    operationId: "suggestMessages",
    summary: "Three message suggestions made from a segment's real figures",
    tag: "AI",
    body: "MessageSuggestionsInput",
    answers: { 200: { description: "Suggestions", json: "MessageSuggestions" } },
    errors: [400, 404, 413, 422],
  },
];
