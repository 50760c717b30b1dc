// The rows `crm db copy` (copy-to-postgres.server.ts) sends, as COPY text read lazily from SQLite,
// and the figures it compares on both sides before it commits (the rows, and a sum for every
// column).
import type Database from "better-sqlite3";
import type pg from "pg";
import { type Column, quote } from "./copy-tables.server.ts";

// COPY's text format: a tab between values, a newline after a row, \N for null, and backslash
// escapes for the four characters that would otherwise end a value.
const NEEDS_ESCAPE = /[\\\n\r\t]/;
function escapeText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
}

/**
 * One value as COPY text. SQLite keeps DateTime as integer milliseconds (Prisma's unixepoch-ms);
 * a row written by SQL with the column's CURRENT_TIMESTAMP default holds "YYYY-MM-DD HH:MM:SS" in
 * UTC, which the session reads as UTC (SET LOCAL timezone). Booleans are 0/1, which PostgreSQL's
 * boolean input takes as they are. Bytes go as bytea's hex form.
 */
function formatValue(value: unknown, type: Column["type"]): string {
  if (value === null || value === undefined) return "\\N";
  if (type === "timestamp") {
    if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value)).toISOString();
    const text = String(value);
    return /^-?\d+$/.test(text) ? new Date(Number(text)).toISOString() : escapeText(text);
  }
  // bytea's hex input (\\x…), its backslash doubled for COPY's text format.
  if (type === "bytes") return "\\\\x" + (Buffer.isBuffer(value) ? value : Buffer.from(String(value))).toString("hex");
  if (typeof value === "string") return escapeText(value);
  if (Buffer.isBuffer(value)) return escapeText(value.toString("utf8"));
  return String(value);
}

/** The rows of one table as chunks of COPY text, read lazily so memory stays flat. */
export function* copyChunks(
  statement: Database.Statement,
  columns: Column[],
  chunkBytes: number,
  onRows: (done: number) => void,
): Generator<string> {
  let chunk = "";
  let done = 0;
  const types = columns.map((c) => c.type);
  const width = types.length;
  for (const row of statement.iterate() as Iterable<unknown[]>) {
    let line = formatValue(row[0], types[0]);
    for (let i = 1; i < width; i++) line += "\t" + formatValue(row[i], types[i]);
    chunk += line + "\n";
    done += 1;
    if (chunk.length >= chunkBytes) {
      yield chunk;
      chunk = "";
      onRows(done);
    }
  }
  if (chunk) yield chunk;
  onRows(done);
}

/** The figures compared on both sides: the rows, and a sum for every column. */
export function figureSql(columns: Column[], engine: "sqlite" | "postgres"): { names: string[]; select: string } {
  const names = ["rows"];
  const parts = ["count(*)"];
  for (const { name, type } of columns) {
    const c = quote(name);
    if (type === "int") {
      names.push(`sum of ${name}`);
      parts.push(`COALESCE(sum(${c}), 0)`);
    } else if (type === "real") {
      // Floating point: the sum in thousandths, so the order of the additions cannot tell them apart.
      names.push(`sum of ${name} (thousandths)`);
      parts.push(
        engine === "sqlite"
          ? `CAST(round(COALESCE(sum(${c}), 0) * 1000) AS INTEGER)`
          : `round(COALESCE(sum(${c}), 0) * 1000)::bigint`,
      );
    } else if (type === "bool") {
      names.push(`${name} true`);
      parts.push(engine === "sqlite" ? `COALESCE(sum(${c} <> 0), 0)` : `count(*) FILTER (WHERE ${c})`);
    } else if (type === "timestamp") {
      names.push(`sum of ${name} (ms)`);
      parts.push(
        engine === "sqlite"
          ? `COALESCE(sum(CASE WHEN typeof(${c}) IN ('integer', 'real') THEN CAST(${c} AS INTEGER) ELSE CAST(round(unixepoch(${c}, 'subsec') * 1000) AS INTEGER) END), 0)`
          : `COALESCE(sum((extract(epoch FROM ${c}) * 1000)::bigint), 0)`,
      );
    } else {
      names.push(`length of ${name}`);
      parts.push(`COALESCE(sum(length(${c})), 0)`);
    }
  }
  return { names, select: parts.join(", ") };
}

/** The figures of one table on SQLite, as text. */
export function sqliteFigures(sqlite: Database.Database, table: string, columns: Column[]): string[] {
  const { select } = figureSql(columns, "sqlite");
  const row = sqlite
    .prepare(`SELECT ${select} FROM ${quote(table)}`)
    .raw(true)
    .safeIntegers(true)
    .get() as unknown[];
  return row.map((v) => String(v));
}

/** The figures of one table on PostgreSQL, as text. */
export async function postgresFigures(client: pg.Client, table: string, columns: Column[]): Promise<string[]> {
  const { select } = figureSql(columns, "postgres");
  const result = await client.query({ text: `SELECT ${select} FROM ${quote(table)}`, rowMode: "array" });
  return (result.rows[0] as unknown[]).map((v) => String(v));
}
