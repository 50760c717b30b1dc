import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// One door to the data (docs/architecture.md#data-access): SQL, the database drivers and the Prisma
// client live in app/models/ and app/db/ alone. The entry points (server/, jobs/, cli/ and
// app/entry.server.tsx) may open, migrate, tune and close the database through app/db/, never
// query it. Tests, the bench and scripts are exempt.
const DRIVERS = {
  group: ["better-sqlite3", "pg", "pg-*", "kysely", "prisma", "@prisma/*", "**/generated/prisma/**", "~/generated/**"],
  message: "Only app/models/ and app/db/ speak to the database: call a model function instead.",
};
const DATABASE_LAYER = {
  group: ["~/db/**", "**/app/db/**", "../db/**", "./db/**"],
  message: "app/db/ is reached through the models (app/models/): call a model function instead.",
};
const QUERYING = {
  group: ["**/db/reader.server*", "**/db/writer.server*", "~/db/reader.server", "~/db/writer.server"],
  message: "Entry points open, migrate and close the database; queries belong in app/models/.",
};

export default tseslint.config(
  {
    // Generated or downloaded: never linted (.prettierignore lists the same folders).
    ignores: [
      "build/**",
      "app/generated/**",
      "node_modules/**",
      "data/**",
      "reports/**",
      "test-results/**",
      "playwright-report/**",
      "bench/results/**",
      ".prof/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/models/**", "app/db/**", "app/entry.server.tsx", "**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [DRIVERS, DATABASE_LAYER] }] },
  },
  {
    files: ["server/**/*.ts", "jobs/**/*.ts", "cli/**/*.ts", "app/entry.server.tsx"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [DRIVERS, QUERYING] }] },
  },
);
