// The segment compiler and its audience queries moved to app/models/segments/ (compile.server.ts,
// audience.server.ts); this re-export keeps the old path for the files that still import it.
export * from "~/models/segments/compile.server"; // moved
export * from "~/models/segments/audience.server"; // moved
