// GET /api/openapi.json: the OpenAPI 3.1 document of /api (app/lib/openapi/document.server.ts), made
// from the operations each /api route declares beside itself (./operations.server.ts). Public: it
// says what the API takes and answers, nothing about anyone's data. Built once per process.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { buildOpenApiDocument } from "~/lib/openapi/document.server";
import { API_OPERATIONS } from "./operations.server";

let text: Promise<string> | undefined;

export async function loader(_args: LoaderFunctionArgs) {
  text ??= buildOpenApiDocument(API_OPERATIONS).then((document) => JSON.stringify(document));
  const body = await text;
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      "Content-Length": String(Buffer.byteLength(body)),
    },
  });
}

export const action = methodNotAllowed("GET");
