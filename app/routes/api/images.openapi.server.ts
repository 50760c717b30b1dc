// The OpenAPI operations of /api/images (./images.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { z } from "zod";
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/images",
    method: "get",
    operationId: "listImages",
    summary: "The caller's uploaded images, newest first, each with its public address",
    tag: "Templates",
    answers: { 200: { description: "Images", json: "ImageList" } },
  },
  {
    path: "/api/images",
    method: "post",
    operationId: "uploadImage",
    summary: "Uploads an image for templates: a PNG, JPEG or GIF of at most 1 MB",
    description:
      "The body is the file's bytes, sent with its Content-Type. What the bytes are is checked, not the type or the name. The same file uploaded again answers 200 with the image already kept.",
    tag: "Templates",
    query: z.object({ name: z.string().optional().meta({ description: "The file's name, for the list" }) }),
    body: { media: "image/*", description: "The image file (image/png, image/jpeg or image/gif)" },
    answers: {
      200: { description: "The same file was uploaded before: that image", json: "Image" },
      201: { description: "The image", json: "Image", headers: ["Location"] },
    },
    errors: [400, 409, 413, 422],
  },
];
