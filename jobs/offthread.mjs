await import("./background-work.mjs"); // moved: jobEntry("offthread") until app/services/job-entry.server.ts names background-work
