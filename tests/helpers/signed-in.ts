// A new user signed in, for route tests: the user and the session cookie its browser would hold.
import { createTestUser } from "./db";
import { cookieFor } from "./requests";

export async function signedIn(name?: string) {
  const user = await createTestUser(name);
  return { user, cookie: await cookieFor(user.id) };
}
