export * from "~/services/background-work.server"; // moved
