// The users model's Prisma calls: one body for both engines (db() is PostgreSQL's client there).
import { db } from "~/db/prisma.server";
import type { UsersStore } from "~/models/users/contract";

export const commonUsers = {
  async findUserWithEmail(email) {
    return db().user.findUnique({ where: { email } });
  },

  async findUserWithGoogleId(googleId) {
    return db().user.findUnique({ where: { googleId } });
  },

  async emailUsedByAnother(email, userId) {
    const clash = await db().user.findFirst({ where: { email, NOT: { id: userId } }, select: { id: true } });
    return clash !== null;
  },

  async findUserEmail(userId) {
    const row = await db().user.findUnique({ where: { id: userId }, select: { email: true } });
    return row?.email ?? null;
  },

  async listUsersOldestFirst() {
    return db().user.findMany({ orderBy: { createdAt: "asc" } });
  },

  async findOldestUserId() {
    const row = await db().user.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    return row?.id ?? null;
  },

  async insertUser(user) {
    return db().user.create({ data: user });
  },

  async updateUser(userId, changes) {
    return db().user.update({ where: { id: userId }, data: changes });
  },

  async setPasswordAndEndSessions(userId, passwordHash) {
    return db().user.update({ where: { id: userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
  },

  async setPasswordAtVersion(userId, version, passwordHash) {
    const { count } = await db().user.updateMany({
      where: { id: userId, sessionVersion: version },
      data: { passwordHash, sessionVersion: { increment: 1 } },
    });
    return count === 1 ? db().user.findUnique({ where: { id: userId } }) : null;
  },

  async bumpSessionVersion(userId) {
    await db().user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  },

  async readSessionVersion(userId) {
    const row = await db().user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
    return row?.sessionVersion ?? null;
  },

  async deleteUserById(userId) {
    const { count } = await db().user.deleteMany({ where: { id: userId } });
    return count > 0;
  },
} satisfies Omit<UsersStore, "findUserById" | "userRowExists" | "findSenderProfile">;
