// The users model on PostgreSQL: the raw reads as one statement each on the process's pool (or on
// a worker thread's own pool); the rest is Prisma's (./common.server.ts).
import { postgresOf } from "~/db/engine.server";
import { postgres, query } from "~/db/postgres.server";
import { commonUsers } from "~/models/users/common.server";
import type { UsersStore } from "~/models/users/contract";
import { type SenderProfile, userOfRow, type UserRow, userStatements } from "~/models/users/rows";

const SQL = userStatements("$1");

export const postgresUsers: UsersStore = {
  ...commonUsers,

  async findUserById(id) {
    // The pool answers timestamptz as unix ms (app/db/postgres.server.ts), booleans as booleans.
    const [row] = await query<UserRow>(postgres(), SQL.userById, [id]);
    return row ? userOfRow(row) : null;
  },

  async userRowExists(id) {
    return (await query<{ found: number }>(postgres(), SQL.userExists, [id])).length > 0;
  },

  async findSenderProfile(userId, connection) {
    const [row] = await query<SenderProfile>(connection ? postgresOf(connection) : postgres(), SQL.senderProfile, [
      userId,
    ]);
    return row ?? null;
  },
};
