// The users model's reads on PostgreSQL: the twins of the raw reads in ./users.server.ts (the
// SQLite side reads them as prepared statements on the read connection), with the same names,
// parameters and answers, each taking the pool or connection to run on first. The rest of the
// users model goes through Prisma (db()), which is PostgreSQL's client on PostgreSQL.
import { type Postgres, query } from "~/db/postgres.server";
import type { SenderProfile, User } from "~/models/users.server";

// As the pool answers: timestamptz as unix ms (app/db/postgres.server.ts), booleans as booleans.
type UserRowPg = Omit<User, "createdAt" | "updatedAt"> & { createdAt: number; updatedAt: number };

const USER_BY_ID_SQL = `SELECT "id", "email", "displayName", "firstName", "lastName", "phone", "company", "position",
  "profileImage", "googleId", "provider", "newCustomersSinceNotice", "createdAt", "updatedAt", "passwordHash",
  "emailVerified", "sessionVersion", "timeZone" FROM "User" WHERE "id" = $1`;

export async function findUserByIdPg(pg: Postgres, id: string): Promise<User | null> {
  const [row] = await query<UserRowPg>(pg, USER_BY_ID_SQL, [id]);
  if (!row) return null;
  return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
}

export async function userRowExistsPg(pg: Postgres, id: string): Promise<boolean> {
  return (await query<{ found: number }>(pg, `SELECT 1 AS "found" FROM "User" WHERE "id" = $1`, [id])).length > 0;
}

export async function findSenderProfilePg(pg: Postgres, userId: string): Promise<SenderProfile | null> {
  const [row] = await query<SenderProfile>(pg, `SELECT "company", "displayName", "email" FROM "User" WHERE "id" = $1`, [
    userId,
  ]);
  return row ?? null;
}
