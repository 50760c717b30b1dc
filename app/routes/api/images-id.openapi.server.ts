// The OpenAPI operations of /api/images/{id} (./images-id.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/images/{id}",
    method: "get",
    operationId: "getImage",
    summary: "One of the caller's images (its url serves the bytes)",
    tag: "Templates",
    answers: { 200: { description: "The image", json: "Image" } },
    errors: [404],
  },
  {
    path: "/api/images/{id}",
    method: "delete",
    operationId: "deleteImage",
    summary: "Deletes an image, unless a template or a campaign still shows it (409 naming them)",
    tag: "Templates",
    answers: { 200: { description: "Deleted", json: "SuccessMessage" } },
    errors: [404, 409],
  },
];
