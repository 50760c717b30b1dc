// What services may hold of the database without speaking SQL: a transaction handle to pass to
// several model functions that must commit together, and the type of a connection that a worker
// thread opened for itself (the delivery job, the import and export jobs). Both are opaque to
// services: only the functions in app/models use them.
//
// A folder of app/models/ with this one file: one body for both engines (Prisma's transaction, whose
// client is PostgreSQL's there) and no table, so no contract, engine files or engineDoor(). Not in
// app/db/, which services reach only through app/models/.
import { db } from "~/db/prisma.server";
import type { Prisma } from "~/generated/prisma/client";

/** A transaction in progress: pass it to model functions that take `tx`. */
export type Tx = Prisma.TransactionClient;

/** A connection of one's own to either engine (app/db/connection.server.ts), as the delivery job holds it. */
export type { AnyConnection } from "~/db/connection.server";

/** Runs `work` in one write transaction; every model function given `tx` commits with it. */
export function transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(work);
}

/** Runs `work` in the caller's transaction when one is given (model functions that take `tx`), else in one of its own. */
export function inTransaction<T>(tx: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
  return tx ? work(tx) : transaction(work);
}
