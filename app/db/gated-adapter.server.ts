// Prisma's better-sqlite3 adapter behind this thread's write gate
// ([decision 0020](../../docs/decisions/0020-one-writer-per-thread.md)).
//
// The stock adapter has one connection for everything and starts transactions with a deferred
// `BEGIN`. Three consequences broke writes while a campaign sent:
// - A transaction that reads first and writes later (every order and customer write checks the
//   record first) fails at once with SQLITE_BUSY_SNAPSHOT when another thread committed in
//   between; Prisma reports it as "Operation has timed out". Here it begins IMMEDIATE: the write
//   lock is taken before the first read, so it cannot be stale.
// - Waiting for the lock happened in SQLite's busy handler, on the thread that answers requests.
//   Here the connection has busy_timeout 0 and the lock is asked for again on a timer
//   (`retryWhileBusy`), so the event loop runs while another thread writes.
// - A query outside a transaction ran on the same connection while another request's transaction
//   was open, so it became part of that transaction (an acknowledged write lost if it rolled back,
//   uncommitted rows seen). Here a write outside a transaction waits for the gate, as transactions
//   do, and a read outside a transaction runs on a second, read-only connection of its own, which
//   sees only committed rows and waits for nobody.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type { Sqlite } from "~/db/sqlite.server";
import { retryWhileBusy, writeGate } from "~/db/write-gate.server";

const WRITE_CACHE_MIB = 16;

/** The adapter reports SQLITE_BUSY as a DriverAdapterError of kind "SocketTimeout". */
function isAdapterBusy(error: unknown): boolean {
  const cause = (error as { cause?: { kind?: unknown } } | null)?.cause;
  return cause?.kind === "SocketTimeout";
}

// The stock adapter's connection. Its class keeps it in a public field (`client`), which its
// typings do not declare: this is the one place that reaches for it.
function connectionOf(adapter: SqlDriverAdapter): Sqlite {
  const client = (adapter as unknown as { client?: Sqlite }).client;
  if (!client || typeof client.prepare !== "function") {
    throw new Error(
      "The SQLite driver adapter no longer exposes its connection; update app/db/gated-adapter.server.ts.",
    );
  }
  return client;
}

/** Whether a statement only reads (remembered per SQL text; Prisma's texts repeat). */
function readOnlyCheck(reader: Sqlite): (sql: string) => boolean {
  const known = new Map<string, boolean>();
  return (sql) => {
    let readOnly = known.get(sql);
    if (readOnly === undefined) {
      try {
        readOnly = reader.prepare(sql).readonly;
      } catch {
        readOnly = false;
      }
      if (known.size >= 2_000) known.clear();
      known.set(sql, readOnly);
    }
    return readOnly;
  };
}

function gate(inner: SqlDriverAdapter, reads: SqlDriverAdapter): SqlDriverAdapter {
  const sqlite = connectionOf(inner);
  sqlite.pragma("busy_timeout = 0");
  // Writes touch a tenant's customer and segment indexes at a million rows: a page cache larger
  // than SQLite's 2 MB default keeps a write's pages in memory instead of reading them again.
  sqlite.pragma(`cache_size = -${WRITE_CACHE_MIB * 1024}`);
  // A second connection for queries that only read, outside any transaction: they need no gate
  // and no lock, so a request's reads (its sign-in check, a record to show) never queue behind
  // writes. It sees every committed write (WAL) and cannot write itself.
  const reader = connectionOf(reads);
  reader.pragma("busy_timeout = 0");
  reader.pragma("query_only = ON");
  const readsOnly = readOnlyCheck(reader);
  // We open the transaction ourselves (BEGIN IMMEDIATE, retried on a timer); the adapter's own
  // deferred BEGIN becomes a savepoint inside it, so Prisma's COMMIT or ROLLBACK ends both.
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) =>
    prepare(source === "BEGIN" ? "SAVEPOINT prisma_transaction" : source)) as Sqlite["prepare"];

  const outside = async <T>(run: () => Promise<T>): Promise<T> => {
    const release = await writeGate().acquire();
    try {
      // The adapter's calls do their work synchronously and hand back a settled promise, so a
      // busy answer is thrown or rejected before anything else runs here.
      return await retryWhileBusy(run, isAdapterBusy);
    } finally {
      release();
    }
  };

  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query: SqlQuery) =>
      readsOnly(query.sql)
        ? retryWhileBusy(() => reads.queryRaw(query), isAdapterBusy)
        : outside(() => inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => outside(() => inner.executeRaw(query)),
    executeScript: (script: string) => outside(() => inner.executeScript(script)),
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    dispose: async () => {
      await Promise.all([inner.dispose(), reads.dispose()]);
    },
    async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
      const release = await writeGate().acquire();
      try {
        await retryWhileBusy(() => sqlite.exec("BEGIN IMMEDIATE"));
      } catch (error) {
        release();
        throw error;
      }
      try {
        const tx = await inner.startTransaction(isolationLevel);
        const end = (finish: () => Promise<void>) => async () => {
          try {
            await finish();
          } finally {
            // Prisma sends COMMIT or ROLLBACK as a statement before it calls these; whatever it
            // did, the connection leaves the transaction before another writer may use it, and
            // the gate is released even if that fails.
            try {
              if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
            } finally {
              release();
            }
          }
        };
        return {
          provider: tx.provider,
          adapterName: tx.adapterName,
          options: tx.options,
          queryRaw: (query) => tx.queryRaw(query),
          executeRaw: (query) => tx.executeRaw(query),
          createSavepoint: tx.createSavepoint?.bind(tx),
          rollbackToSavepoint: tx.rollbackToSavepoint?.bind(tx),
          releaseSavepoint: tx.releaseSavepoint?.bind(tx),
          commit: end(() => tx.commit()),
          rollback: end(() => tx.rollback()),
        };
      } catch (error) {
        try {
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        } finally {
          release();
        }
        throw error;
      }
    },
  };
}

/** The better-sqlite3 adapter factory, every connection it opens behind the write gate. */
export class GatedSqliteAdapter implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "sqlite";
  readonly adapterName: string;
  readonly #inner: PrismaBetterSqlite3;

  constructor(...args: ConstructorParameters<typeof PrismaBetterSqlite3>) {
    this.#inner = new PrismaBetterSqlite3(...args);
    this.adapterName = this.#inner.adapterName;
  }

  async connect(): Promise<SqlDriverAdapter> {
    return gate(await this.#inner.connect(), await this.#inner.connect());
  }

  // The shadow database (in memory, for schema diffs) has no other writer, and a second
  // connection to it would be a different database: it is used as the adapter makes it.
  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.#inner.connectToShadowDb();
  }
}
