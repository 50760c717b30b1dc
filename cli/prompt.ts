// Reading a secret for the CLI: typed at a terminal without echo (asked twice), or read from the
// first line of standard input when it is not a terminal (scripts and tests pipe it in). Never an
// argument: those end up in shell history and in `ps` for every user of the machine.
import { createInterface } from "node:readline";

/** Reads one line from a terminal without showing what is typed. */
function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    process.stderr.write(question);
    let typed = "";
    input.setRawMode(true);
    input.resume();
    input.setEncoding("utf8");
    const done = (result: string | Error) => {
      input.setRawMode(false);
      input.pause();
      input.removeListener("data", onData);
      process.stderr.write("\n");
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return done(typed);
        if (char === "\u0003") return done(new Error("Cancelled"));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else if (char >= " ") typed += char;
      }
    };
    input.on("data", onData);
  });
}

/** The first line of standard input (without its line ending). */
async function firstLine(): Promise<string> {
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return "";
}

/** A new password: asked twice at a terminal (both must match), else the first line of stdin. */
export async function readNewPassword(): Promise<string> {
  if (!process.stdin.isTTY) return firstLine();
  const first = await askHidden("Password: ");
  const second = await askHidden("Repeat the password: ");
  if (first !== second) throw new Error("The two passwords differ; nothing was changed");
  return first;
}
