// Which test files run a second time on PostgreSQL (the "postgres" project of vite.config.ts,
// TEST_DATABASE_ENGINE=postgres): a property of the file, never a list kept by hand.
//
//   - every test file under app/models/ (the models are the engine-specific code: each runs on
//     both engines by rule, wherever in app/models/ it lives or moves);
//   - any other test file whose first line is the marker `// @engines sqlite postgres`.
//
// Such a file's useTestDatabase() (tests/helpers/db.ts) then gives it a fresh migrated PostgreSQL
// database instead of a SQLite file, so the same assertions hold on both engines. docs/testing.md
// says the same for people.
import { openSync, readSync, closeSync, readdirSync } from "node:fs";
import path from "node:path";

/** The first line of a test file that opts in to PostgreSQL outside app/models/. */
export const POSTGRES_MARKER = "// @engines sqlite postgres";

/** Where the test files are (the roots of vite.config.ts's include patterns). */
const TEST_ROOTS = ["app", "server", "cli", "tests", "prisma", "jobs"];
const TEST_FILE = /\.test\.tsx?$/;

function firstLine(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(256);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString("utf8").split(/\r?\n/, 1)[0] ?? "";
  } finally {
    closeSync(fd);
  }
}

function testFiles(root: string, dir: string, out: string[]) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (rel !== "tests/e2e") testFiles(root, rel, out);
    } else if (TEST_FILE.test(entry.name)) out.push(rel);
  }
}

/** True when the file (relative to the repository) runs on PostgreSQL too. */
export function runsOnPostgres(root: string, file: string): boolean {
  return file.startsWith("app/models/") || firstLine(path.join(root, file)) === POSTGRES_MARKER;
}

/** The test files, relative to `root`, that run on PostgreSQL too, sorted. */
export function postgresSuite(root: string): string[] {
  const files: string[] = [];
  for (const dir of TEST_ROOTS) testFiles(root, dir, files);
  return files.filter((file) => runsOnPostgres(root, file)).sort();
}
