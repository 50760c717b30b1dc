// Local sign-in for the embedded default: creates or reuses an account by e-mail, then follows the
// same path as Google sign-in (/auth/callback with a token).
import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { fieldErrors } from "~/lib/api.server";
import { LocalSignInSchema } from "~/schemas/profile";
import { checkSignInRate, clientAddress } from "~/services/rate-limit.server";
import { signInAndRedirect } from "~/services/session.server";
import { issueToken } from "~/services/token.server";
import { upsertLocalUser } from "~/services/users.server";

export async function loader() {
  throw redirect("/login");
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!getEnv().localAuthEnabled) throw new Response("Local sign-in is turned off", { status: 404 });
  const limited = checkSignInRate(clientAddress(context));
  if (limited) return data({ fields: { email: limited }, values: {} }, { status: 429 });
  const form = await request.formData();
  const values = { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? "") };
  const parsed = LocalSignInSchema.safeParse(values);
  if (!parsed.success) return data({ fields: fieldErrors(parsed.error), values }, { status: 400 });
  const user = await upsertLocalUser(parsed.data);
  const token = await issueToken(user.id);
  return signInAndRedirect(request, user.id, `/auth/callback?token=${encodeURIComponent(token)}&auth=success`);
}
