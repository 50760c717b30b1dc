// The `crm` program loads only the command group a command line names: its top-level help, made
// from COMMANDS' names and descriptions, must be the help of the program with every group loaded,
// and each command named must be the full one.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMANDS, buildProgram, namedCommand } from "./program";

/** A command's help and its subcommands' helps, all the way down. */
function helpTree(command: Command): string[] {
  return [command.helpInformation(), ...command.commands.flatMap(helpTree)];
}

describe("the crm program", () => {
  it("lists every top-level command the groups register, in COMMANDS' order, with their descriptions", async () => {
    const full = await buildProgram([], { all: true });
    expect(full.commands.map((c) => [c.name(), c.description()])).toEqual(COMMANDS.map((c) => [c.name, c.description]));
    const names = await buildProgram(["--help"]);
    expect(names.helpInformation()).toBe(full.helpInformation());
    expect(names.helpInformation()).toContain("seed [options]");
  });

  it("registers the command a command line names in full, and its help is the full program's", async () => {
    const full = await buildProgram([], { all: true });
    for (const { name } of COMMANDS) {
      for (const args of [
        [name, "--help"],
        ["help", name],
        ["--help", name],
      ]) {
        const program = await buildProgram(args);
        const command = program.commands.find((c) => c.name() === name)!;
        const expected = full.commands.find((c) => c.name() === name)!;
        expect(helpTree(command), args.join(" ")).toEqual(helpTree(expected));
        expect(program.helpInformation(), args.join(" ")).toBe(full.helpInformation());
      }
    }
  });

  it("finds the command named, past options and `help`, and nothing for an unknown one", () => {
    expect(namedCommand(["users", "token", "a@example.com"])).toBe("users");
    expect(namedCommand(["help", "import"])).toBe("import");
    expect(namedCommand(["--help"])).toBeUndefined();
    expect(namedCommand(["user"])).toBeUndefined();
    expect(namedCommand([])).toBeUndefined();
  });
});
