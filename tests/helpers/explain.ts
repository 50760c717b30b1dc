// PostgreSQL's plan of a statement, for the tests that check a query walks the index it was shaped
// for. A test database holds a few dozen rows, where a sequential scan and a sort are the cheapest
// plan for anything; with both priced out of reach (enable_seqscan and enable_sort off, in a
// transaction rolled back after) the planner shows the index plan it would take on a large table,
// and a Sort still if the query cannot be answered in an index's order. An Incremental Sort (the
// rows of one value of an index's leading keys, ordered by the rest) stays allowed.
import type { AnyConnection } from "~/db/connection.server";
import { isPostgres } from "~/db/connection.server";

/**
 * The lines of EXPLAIN for `sql` ($1, $2, … placeholders), sequential scans and full sorts off,
 * after the `setup` statements, in the same transaction (rolled back: a test may drop an index to
 * see which plan is left).
 */
export async function postgresPlan(
  connection: AnyConnection,
  sql: string,
  params: readonly unknown[] = [],
  setup: readonly string[] = [],
): Promise<string[]> {
  if (!isPostgres(connection)) throw new Error("postgresPlan() needs a PostgreSQL connection");
  const client = await connection.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL enable_seqscan = off");
    await client.query("SET LOCAL enable_sort = off");
    for (const statement of setup) await client.query(statement);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params as unknown[]);
    return rows.map((row) => row["QUERY PLAN"]);
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

/** Whether a plan sorts rows it read (a full Sort node; an Incremental Sort of an index's groups is not one). */
export function sortsRows(plan: readonly string[]): boolean {
  return plan.some((line) => /(^|->\s+)Sort(\s+\(|$)/.test(line.trim()));
}
