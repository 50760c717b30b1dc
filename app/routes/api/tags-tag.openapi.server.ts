// The OpenAPI operations of /api/tags/{tag} (./tags-tag.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/tags/{tag}",
    method: "patch",
    operationId: "renameTag",
    summary: "Renames a tag everywhere; onto another tag's name the two become one",
    tag: "Tags",
    body: "TagRenameInput",
    answers: { 200: { description: "The tag after", json: "Tag" } },
    errors: [400, 404, 413],
  },
  {
    path: "/api/tags/{tag}",
    method: "delete",
    operationId: "deleteTag",
    summary: "Takes a tag off every customer and deletes it",
    tag: "Tags",
    answers: { 200: { description: "Deleted", json: "TagDeleted" } },
    errors: [404],
  },
];
