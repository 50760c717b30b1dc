// bin/crm.mjs chooses what to run: the compiled CLI while no source it was built from is newer,
// else the TypeScript source through tsx where tsx is installed, else the compiled CLI with a
// warning, or a request to build when there is none. Tried on a copy of bin/crm.mjs in a folder of
// its own, whose "compiled CLI" and "source" each say which they are.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(path.join(tmpdir(), "crm-bin-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SAYS = (what: string) => `console.log(${JSON.stringify(what)}, JSON.stringify(process.argv.slice(2)));\n`;

/** A folder laid out like the repository: bin/crm.mjs, the source, maybe a build and node_modules. */
function install(name: string, options: { built: boolean; tsx: boolean }) {
  const root = path.join(scratch, name);
  mkdirSync(path.join(root, "bin"), { recursive: true });
  mkdirSync(path.join(root, "cli"));
  copyFileSync(path.join(repo, "bin", "crm.mjs"), path.join(root, "bin", "crm.mjs"));
  writeFileSync(path.join(root, "cli", "index.ts"), SAYS("source"));
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(path.join(root, "cli", "index.ts"), hourAgo, hourAgo);
  if (options.built) {
    mkdirSync(path.join(root, "build", "node"), { recursive: true });
    writeFileSync(path.join(root, "build", "node", "cli.mjs"), SAYS("compiled"));
    writeFileSync(
      path.join(root, "build", "node", "cli-sources.json"),
      JSON.stringify({ entry: "cli.mjs", sources: ["cli/index.ts"] }),
    );
    // Built half an hour ago, after the source.
    const halfHourAgo = new Date(Date.now() - 1_800_000);
    utimesSync(path.join(root, "build", "node", "cli.mjs"), halfHourAgo, halfHourAgo);
  }
  if (options.tsx) symlinkSync(path.join(repo, "node_modules"), path.join(root, "node_modules"));
  const crm = (...args: string[]) => {
    const r = spawnSync(process.execPath, [path.join(root, "bin", "crm.mjs"), ...args], { encoding: "utf8" });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const touchSource = () => writeFileSync(path.join(root, "cli", "index.ts"), SAYS("source"));
  return { crm, touchSource };
}

describe("bin/crm.mjs", { timeout: 60_000 }, () => {
  it("runs the compiled CLI while it is up to date, with the arguments", () => {
    const { crm } = install("fresh", { built: true, tsx: true });
    expect(crm("users", "token", "a@example.com")).toEqual({
      code: 0,
      stdout: `compiled ["users","token","a@example.com"]\n`,
      stderr: "",
    });
  });

  it("runs the source through tsx once a source is newer than the build, or when there is no build", () => {
    const stale = install("stale", { built: true, tsx: true });
    stale.touchSource();
    expect(stale.crm("--help")).toEqual({ code: 0, stdout: `source ["--help"]\n`, stderr: "" });
    const unbuilt = install("unbuilt", { built: false, tsx: true });
    expect(unbuilt.crm("db", "migrate")).toEqual({ code: 0, stdout: `source ["db","migrate"]\n`, stderr: "" });
  });

  it("without tsx (a production install): the compiled CLI, with a warning when out of date; none asks for a build", () => {
    const stale = install("pruned-stale", { built: true, tsx: false });
    stale.touchSource();
    const run = stale.crm("--help");
    expect(run.stdout).toBe(`compiled ["--help"]\n`);
    expect(run.stderr).toBe(
      "crm: warning: build/node/cli.mjs is out of date (cli/index.ts changed since); run `npm run build`.\n",
    );
    const none = install("pruned-unbuilt", { built: false, tsx: false }).crm("--help");
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toBe(
      "crm: the CLI is not built. Run `npm run build` first (it compiles the server and the CLI).\n",
    );
  });

  it("answers `crm --help` in this repository, built or not", () => {
    const help = execFileSync(process.execPath, [path.join(repo, "bin", "crm.mjs"), "--help"], { encoding: "utf8" });
    expect(help).toMatch(/^Usage: crm /);
    expect(help).toMatch(/users\s+Manage user accounts/);
  });
});
