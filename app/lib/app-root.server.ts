// The application's root folder: the nearest folder with a package.json above a starting point.
// Deliberately free of the app's other modules (and of the "~" alias), so server/index.ts can
// import it both under tsx and in the compiled server, and a copy of it there costs nothing.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nearest folder at or above `from` (by default, this module's) that holds a package.json.
 * The source (app/lib, server/), the page build (build/server) and the compiled server
 * (build/node) all find the same one, in the repository and in the container. With none up to
 * the file system's root: the working directory.
 */
export function appRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}
