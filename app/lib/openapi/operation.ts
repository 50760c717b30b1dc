// One /api operation as its route declares it (app/routes/api/<route>.openapi.server.ts), and the
// helpers those declarations share. The document (./document.server.ts) turns each into an OpenAPI
// operation object: path parameters, the errors every operation of its kind has, security.
import type { z } from "zod";
import type { AnswerName, InputName } from "~/lib/openapi/components.server";

type Json = Record<string, unknown>;
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
export const HTTP_METHODS: readonly HttpMethod[] = ["get", "post", "put", "patch", "delete"];

export type Auth = "user" | "optional" | "none" | "signature";
export type Answer = {
  description: string;
  /** A JSON answer: a component, or a list of one. */
  json?: AnswerName | [AnswerName];
  /** Another media type (its schema: any). */
  media?: string;
  headers?: string[];
};

export type Operation = {
  path: string;
  method: HttpMethod;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth?: Auth;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  extraParameters?: Json[];
  body?: InputName | { media: string; description: string };
  answers: Record<number, Answer>;
  /** The error statuses besides the ones every operation of its kind has. */
  errors?: number[];
  /** Answers without the database (so never 503). */
  withoutDatabase?: true;
};

/** The headers of a page of a list: the total and the next page's cursor. */
export const PAGED_HEADERS = ["X-Total-Count", "X-Next-Cursor"];

/** A PUT and, since the route treats PATCH the same, its PATCH twin. */
export function putAndPatch(operation: Omit<Operation, "method">): Operation[] {
  return [
    { ...operation, method: "put" },
    {
      ...operation,
      method: "patch",
      operationId: `${operation.operationId}Patch`,
      summary: `${operation.summary} (PATCH takes the same full body as PUT)`,
    },
  ];
}

/**
 * An operation and its POST twin, for a route that answers POST the same as `operation.method` (for
 * forms and clients that only send POST): the twin's operationId ends in "Post".
 */
export function withPostTwin(operation: Operation): Operation[] {
  return [operation, { ...operation, method: "post", operationId: `${operation.operationId}Post` }];
}
