// The OpenAPI document of /api as tests use it: the /api routes of app/routes.ts, a structural check
// of the document (OpenAPI 3.1, every $ref resolving, every operation answering), and calls to
// the route modules whose answers are validated with ajv against the document.
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import routes from "~/routes";
import type { OpenApiDocument } from "~/lib/openapi/document.server";
import { HTTP_METHODS, type HttpMethod } from "~/lib/openapi/operation";

type Json = Record<string, unknown>;
type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => unknown;
type RouteModule = { loader?: Handler; action?: Handler };

export type ApiRoute = { path: string; template: string; file: string };

/** The /api routes of app/routes.ts (the catch-all 404 left out), with their OpenAPI path templates. */
export function apiRoutes(): ApiRoute[] {
  const found: ApiRoute[] = [];
  const walk = (entries: { path?: string; file: string; children?: unknown }[]) => {
    for (const entry of entries) {
      if (entry.path?.startsWith("api/") && entry.path !== "api/*") {
        found.push({
          path: entry.path,
          template: `/${entry.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`,
          file: entry.file,
        });
      }
      if (Array.isArray(entry.children)) walk(entry.children as never);
    }
  };
  walk(routes as never);
  return found;
}

export async function routeModule(route: ApiRoute): Promise<RouteModule> {
  return (await import(/* @vite-ignore */ path.resolve("app", route.file))) as RouteModule;
}

// --- structure ------------------------------------------------------------------------------

const REF = { type: "object", required: ["$ref"], properties: { $ref: { type: "string" } } };

/** The parts of the OpenAPI 3.1 schema the document must meet (written for this check, no network). */
export const OPENAPI_31_STRUCTURE = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["openapi", "info", "paths"],
  properties: {
    openapi: { type: "string", pattern: "^3\\.1\\.\\d+$" },
    info: {
      type: "object",
      required: ["title", "version"],
      properties: { title: { type: "string" }, version: { type: "string" }, description: { type: "string" } },
    },
    jsonSchemaDialect: { type: "string" },
    servers: { type: "array", items: { type: "object", required: ["url"] } },
    security: { $ref: "#/$defs/security" },
    tags: { type: "array", items: { type: "object", required: ["name"] } },
    paths: {
      type: "object",
      propertyNames: { pattern: "^/" },
      additionalProperties: { $ref: "#/$defs/pathItem" },
    },
    components: {
      type: "object",
      properties: {
        schemas: { type: "object", additionalProperties: { type: ["object", "boolean"] } },
        responses: { type: "object", additionalProperties: { $ref: "#/$defs/response" } },
        headers: { type: "object", additionalProperties: { $ref: "#/$defs/header" } },
        securitySchemes: { type: "object", additionalProperties: { $ref: "#/$defs/securityScheme" } },
      },
    },
  },
  $defs: {
    security: { type: "array", items: { type: "object", additionalProperties: { type: "array" } } },
    pathItem: {
      type: "object",
      propertyNames: { enum: [...HTTP_METHODS, "head", "options", "trace", "summary", "description", "parameters"] },
      additionalProperties: { $ref: "#/$defs/operation" },
      properties: { summary: { type: "string" }, description: { type: "string" }, parameters: { type: "array" } },
    },
    operation: {
      type: "object",
      required: ["responses", "operationId"],
      properties: {
        operationId: { type: "string" },
        summary: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        security: { $ref: "#/$defs/security" },
        parameters: { type: "array", items: { anyOf: [REF, { $ref: "#/$defs/parameter" }] } },
        requestBody: {
          anyOf: [REF, { type: "object", required: ["content"], properties: { content: { $ref: "#/$defs/content" } } }],
        },
        responses: {
          type: "object",
          minProperties: 1,
          propertyNames: { pattern: "^([1-5][0-9]{2}|[1-5]XX|default)$" },
          additionalProperties: { anyOf: [REF, { $ref: "#/$defs/response" }] },
        },
      },
    },
    parameter: {
      type: "object",
      required: ["name", "in", "schema"],
      properties: {
        name: { type: "string" },
        in: { enum: ["query", "header", "path", "cookie"] },
        required: { type: "boolean" },
        schema: { type: ["object", "boolean"] },
      },
      if: { properties: { in: { const: "path" } } },
      then: { required: ["required"], properties: { required: { const: true } } },
    },
    response: {
      type: "object",
      required: ["description"],
      properties: {
        description: { type: "string" },
        headers: { type: "object", additionalProperties: { anyOf: [REF, { $ref: "#/$defs/header" }] } },
        content: { $ref: "#/$defs/content" },
      },
    },
    header: { type: "object", properties: { schema: { type: ["object", "boolean"] } }, not: { required: ["name"] } },
    content: {
      type: "object",
      additionalProperties: { type: "object", properties: { schema: { type: ["object", "boolean"] } } },
    },
    securityScheme: {
      type: "object",
      required: ["type"],
      properties: { type: { enum: ["apiKey", "http", "mutualTLS", "oauth2", "openIdConnect"] } },
      allOf: [
        {
          if: { properties: { type: { const: "apiKey" } } },
          then: { required: ["name", "in"], properties: { in: { enum: ["query", "header", "cookie"] } } },
        },
        { if: { properties: { type: { const: "http" } } }, then: { required: ["scheme"] } },
      ],
    },
  },
} as const;

function resolvePointer(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith("#")) return undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** Every problem of the document's structure, as sentences; none for a sound document. */
export function structuralProblems(document: OpenApiDocument): string[] {
  const problems: string[] = [];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(OPENAPI_31_STRUCTURE);
  if (!validate(document)) {
    for (const error of validate.errors ?? []) problems.push(`${error.instancePath || "/"} ${error.message}`);
  }
  // Every $ref resolves inside the document.
  const visit = (node: unknown, where: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${where}/${i}`));
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string" && resolvePointer(document, value) === undefined)
          problems.push(`${where}: $ref ${value} does not resolve`);
        visit(value, `${where}/${key}`);
      }
    }
  };
  visit(document, "#");
  // Every component schema is a valid JSON Schema 2020-12 (checked against the meta-schema).
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    if (!ajv.validateSchema(schema)) problems.push(`components.schemas.${name}: ${ajv.errorsText(ajv.errors)}`);
  }
  // Every security requirement names a declared scheme.
  const schemes = Object.keys((document.components.securitySchemes ?? {}) as Json);
  const requirements = [
    ...((document.security ?? []) as Json[]),
    ...Object.values(document.paths).flatMap((item) =>
      HTTP_METHODS.flatMap((m) => ((item[m] as Json | undefined)?.security ?? []) as Json[]),
    ),
  ];
  for (const name of requirements.flatMap((r) => Object.keys(r)))
    if (!schemes.includes(name)) problems.push(`security names ${name}, which components.securitySchemes lacks`);
  const operationIds = new Set<string>();
  for (const [template, item] of Object.entries(document.paths)) {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const id = String(operation.operationId);
      if (operationIds.has(id)) problems.push(`operationId ${id} is used twice`);
      operationIds.add(id);
      const declared = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === "path").map((p) => p.name);
      if (names.join() !== declared.join())
        problems.push(`${method.toUpperCase()} ${template}: path parameters ${declared.join()} ≠ ${names.join()}`);
      const responses = (operation.responses ?? {}) as Json;
      if (!Object.keys(responses).some((status) => /^[23]/.test(status)))
        problems.push(`${method.toUpperCase()} ${template}: no success answer`);
    }
  }
  return problems;
}

// --- answers --------------------------------------------------------------------------------

const DOCUMENT_ID = "https://crm.test/openapi.json";

export type CalledAnswer = {
  status: number;
  headers: Headers;
  contentType: string;
  body: unknown;
};

/** Validates answers against the document: status, media type and body. */
export class AnswerValidator {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.#ajv);
    this.#ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  }

  operation(method: HttpMethod, template: string): Json {
    const operation = this.document.paths[template]?.[method];
    if (!operation) throw new Error(`The document has no ${method.toUpperCase()} ${template}`);
    return operation;
  }

  /** The problems of one answer; none when the document describes it. */
  problems(method: HttpMethod, template: string, answer: CalledAnswer): string[] {
    const operation = this.operation(method, template);
    const responses = operation.responses as Record<string, Json>;
    let response = responses[String(answer.status)];
    let pointer = `#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/responses/${answer.status}`;
    if (!response)
      return [`${method.toUpperCase()} ${template} answered ${answer.status}, which the document does not list`];
    if (typeof response.$ref === "string") {
      pointer = response.$ref;
      response = resolvePointer(this.document, pointer) as Json;
    }
    const content = response.content as Record<string, Json> | undefined;
    if (!content) return answer.body === null ? [] : [`${answer.status}: the document lists no body`];
    const media = answer.contentType.split(";")[0].trim();
    if (!(media in content)) return [`${answer.status}: ${media} is not among ${Object.keys(content).join(", ")}`];
    if (media !== "application/json") return [];
    const schemaPointer = `${pointer}/content/${media.replace(/\//g, "~1")}/schema`;
    let validate = this.#compiled.get(schemaPointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}${schemaPointer}` });
      this.#compiled.set(schemaPointer, validate);
    }
    if (validate(answer.body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${answer.status} body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}
