// /set-password/:token: the page a one-time link opens (~/services/password-link.server). It names
// the account, asks for a password (the sign-up rules), sets it, and signs the person in; the link
// then stops working, as it does after PASSWORD_LINK_DAYS. A used, expired or altered link says so
// and what to do. Public (the token is the credential); works without JavaScript.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, liveChecks } from "~/components/forms";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { LINK_ENDED } from "~/lib/password-link";
import { openPasswordLink, setPasswordThroughLink } from "~/services/password-link.server";
import { signInAndHandOff } from "~/services/session.server";

export const headers = keepAllowHeader;

// The address carries the link's token: no page this one leads to may see it in a Referer.
export const meta: MetaFunction = () => [
  { title: `Set your password · ${BRAND}` },
  { name: "referrer", content: "no-referrer" },
];

const SetPasswordSchema = z.object({
  password: z.string({ message: "Enter a password" }).min(1, "Enter a password").max(256, "At most 256 characters"),
});

export async function loader({ params }: LoaderFunctionArgs) {
  const user = await openPasswordLink(params.token ?? "");
  if (!user) throw new Response(LINK_ENDED, { status: 410, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return data({ name: user.displayName, email: user.email }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  // A body that is not a form reads as an empty one: a 400 under the field, never a 500.
  const form = await request.formData().catch(() => new FormData());
  const submission = parseWithZod(form, { schema: SetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const outcome = await setPasswordThroughLink(params.token ?? "", submission.value.password);
  if ("ended" in outcome)
    return data(submission.reply({ formErrors: [LINK_ENDED], hideFields: ["password"] }), { status: 410 });
  if ("problem" in outcome)
    return data(submission.reply({ fieldErrors: { password: [outcome.problem] }, hideFields: ["password"] }), {
      status: 400,
    });
  return signInAndHandOff(request, outcome.user.id);
}

export default function SetPassword() {
  const { name, email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "set-password",
    lastResult,
    ...liveChecks(SetPasswordSchema),
  });
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-md p-8">
        <h1 className="text-2xl font-bold text-slate-900">Set your password</h1>
        <p className="mt-2 text-slate-600">
          {name}, this sets the password of your {BRAND} account, {email}. At least 10 characters, hard to guess; then
          you sign in with your e-mail and this password.
        </p>
        <Form method="post" className="mt-6 space-y-3" {...getFormProps(form)}>
          <FormAlert id={form.errorId} errors={form.errors} />
          <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
          <Field
            label="Password"
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.password.errors}
          />
          <button type="submit" className="btn-primary w-full" disabled={navigation.state !== "idle"}>
            {navigation.state !== "idle" ? "Saving..." : "Set password and sign in"}
          </button>
        </Form>
        <p className="mt-6 text-center text-xs text-slate-500">
          <Link to="/login" className="underline">
            Sign in instead
          </Link>
        </p>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status !== 410)
    return <RouteErrorBoundary backTo="/login" backLabel="Go to sign in" />;
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-md p-8">
        <h1 className="text-xl font-semibold text-slate-900">This link no longer works</h1>
        <p className="mt-2 text-slate-600">{LINK_ENDED}</p>
        <Link to="/login" className="btn-primary mt-6">
          Go to sign in
        </Link>
      </div>
    </main>
  );
}
