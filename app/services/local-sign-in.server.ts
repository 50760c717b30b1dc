// Local sign-in with passwords. The sign-in of a new e-mail is a sign-up when sign-up is allowed
// (the install's first account, its owner; or any when SIGN_UP=open: ~/services/sign-up.server):
// it creates the account with that password. Later sign-ins need the password; the account is
// found by its current e-mail. Shared by /login's action (errors under the fields, the browser's
// token handed off out of the address) and POST /auth/local (JSON errors, the token in the
// Location for programs).
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { getEnv } from "~/env.server";
import { ApiError } from "~/lib/api.server";
import { SignInSchema, type SignInInput } from "~/schemas/sign-in";
import { hashPassword, passwordProblem, verifyPassword } from "~/services/passwords.server";
import { checkSignInRate, clientAddress } from "~/services/rate-limit.server";
import { signInAndHandOff, signInAndRedirect } from "~/services/session.server";
import { keepSignUp, SIGN_UP_CLOSED, signUpAllowed } from "~/services/sign-up.server";
import { issueToken } from "~/services/token.server";
import { findUserByEmail, upsertLocalUser } from "~/services/users.server";

export const WRONG_PASSWORD = "Wrong password for this e-mail. Check it and try again.";
export const GOOGLE_ACCOUNT = "This account signs in with Google. Use Sign in with Google.";
export const NO_PASSWORD_YET =
  "This account has no password yet. Open the link the server's owner sent you to set one, or ask them for a new link.";

type Refusal = {
  status: 400 | 401 | 403 | 429;
  message: string;
  /** Messages for single fields; the rest is about the form as a whole. */
  fields?: Partial<Record<keyof SignInInput, string>>;
};

export type SignInResult = { submission: Submission<SignInInput> } & ({ response: Response } | { refusal: Refusal });

/**
 * Signs in or signs up from a local sign-in form, or says why not. `tokenTo` says where the bearer
 * token goes: "cookie" for a browser (the address stays clean), "address" for a program reading
 * the redirect's Location (/auth/callback?token=…&auth=success).
 */
export async function localSignIn(
  request: Request,
  context: unknown,
  form: FormData | URLSearchParams,
  tokenTo: "cookie" | "address",
): Promise<SignInResult> {
  const submission = parseWithZod(form, { schema: SignInSchema });
  // Every attempt counts, valid or not, before any account is looked at.
  const limited = await checkSignInRate(clientAddress(context as { clientIp?: string }));
  if (limited) return { submission, refusal: { status: 429, message: limited } };
  if (submission.status !== "success") {
    const fields = Object.fromEntries(
      Object.entries(submission.error ?? {}).flatMap(([name, errors]) => (errors?.[0] ? [[name, errors[0]]] : [])),
    );
    return { submission, refusal: { status: 400, message: "Check the highlighted fields", fields } };
  }
  const { email, password, name } = submission.value;
  let user = await findUserByEmail(email);
  if (!user) {
    if (!(await signUpAllowed()))
      return { submission, refusal: { status: 403, message: SIGN_UP_CLOSED, fields: { email: SIGN_UP_CLOSED } } };
    const fields: Refusal["fields"] = {};
    if (!name) fields.name = "Enter your name to create an account";
    const problem = await passwordProblem(password, { email, name });
    if (problem) fields.password = problem;
    if (fields.name || fields.password) {
      return {
        submission,
        refusal: { status: 400, message: "No account uses this e-mail yet: fix these to create one", fields },
      };
    }
    const passwordHash = await hashPassword(password);
    user = await upsertLocalUser({ email, name: name!, passwordHash });
    // Made by this request (its hash is salted, so no other has it), at the same moment as others.
    if (user.passwordHash === passwordHash && !(await keepSignUp(user.id)))
      return { submission, refusal: { status: 403, message: SIGN_UP_CLOSED, fields: { email: SIGN_UP_CLOSED } } };
    // Two sign-ups of one e-mail at once: the one that lost must know the winner's password.
    if (
      user.passwordHash !== passwordHash &&
      !(user.passwordHash && (await verifyPassword(user.passwordHash, password)))
    ) {
      return { submission, refusal: { status: 401, message: WRONG_PASSWORD, fields: { password: WRONG_PASSWORD } } };
    }
  } else if (!user.passwordHash) {
    return { submission, refusal: { status: 401, message: user.googleId ? GOOGLE_ACCOUNT : NO_PASSWORD_YET } };
  } else if (!(await verifyPassword(user.passwordHash, password))) {
    return { submission, refusal: { status: 401, message: WRONG_PASSWORD, fields: { password: WRONG_PASSWORD } } };
  }
  if (tokenTo === "cookie") return { submission, response: await signInAndHandOff(request, user.id) };
  const token = await issueToken(user.id);
  const response = await signInAndRedirect(
    request,
    user.id,
    `/auth/callback?token=${encodeURIComponent(token)}&auth=success`,
  );
  return { submission, response };
}

export function ensureLocalAuth() {
  if (!getEnv().localAuthEnabled) throw new Response("Local sign-in is turned off", { status: 404 });
}

/** The posted form; a body that is not one (wrong content type, broken encoding) is a 400. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new ApiError("bad_request", "Send the sign-in as a form (e-mail and password) or as JSON");
  }
}
