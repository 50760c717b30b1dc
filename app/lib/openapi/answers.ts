// The shapes of /api answers that services build as TypeScript types (DTOs), written once more in
// zod for the OpenAPI document: there is no zod schema for them elsewhere. Two guards keep them
// honest: the checks at the end of this file fail to compile when a DTO and its schema stop
// describing the same fields, and tests/routes/openapi.test.ts validates real answers against the
// document (objects here are strict, so a field a DTO gains fails there too).
//
// The schemas live by subject in ./answers/ (common pieces, people, segments, campaigns, templates); this file
// gathers them for the document (~/lib/openapi/document.server.ts, components.server.ts).
export * from "./answers/campaigns";
export * from "./answers/common";
export * from "./answers/events";
export * from "./answers/flows";
export * from "./answers/people";
export * from "./answers/segments";
export * from "./answers/templates";
