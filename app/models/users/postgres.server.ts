// The users model on PostgreSQL: the raw reads as one statement each on the process's pool (or on
// a worker thread's own pool); the rest is Prisma's (./common.server.ts).
import { postgresOf } from "~/db/engine.server";
import { postgres, query } from "~/db/postgres.server";
import { commonUsers } from "~/models/users/common.server";
import type { UsersStore } from "~/models/users/contract";
import {
  SENDER_PROFILE_SQL,
  type SenderProfile,
  type User,
  USER_BY_ID_SQL,
  USER_EXISTS_SQL,
} from "~/models/users/rows";

// As the pool answers: timestamptz as unix ms (app/db/postgres.server.ts), booleans as booleans.
type UserRowPg = Omit<User, "createdAt" | "updatedAt"> & { createdAt: number; updatedAt: number };

const USER_BY_ID = USER_BY_ID_SQL("$1");
const USER_EXISTS = USER_EXISTS_SQL("$1");
const SENDER_PROFILE = SENDER_PROFILE_SQL("$1");

export const postgresUsers: UsersStore = {
  ...commonUsers,

  async findUserById(id) {
    const [row] = await query<UserRowPg>(postgres(), USER_BY_ID, [id]);
    if (!row) return null;
    return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
  },

  async userRowExists(id) {
    return (await query<{ found: number }>(postgres(), USER_EXISTS, [id])).length > 0;
  },

  async findSenderProfile(userId, connection) {
    const [row] = await query<SenderProfile>(connection ? postgresOf(connection) : postgres(), SENDER_PROFILE, [
      userId,
    ]);
    return row ?? null;
  },
};
