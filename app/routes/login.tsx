// /login: Google sign-in and, when local accounts are on, the local form. On a new install the
// form makes the first account, the owner's; after that a known e-mail signs in with its password,
// and a new one signs up only when sign-up is open (SIGN_UP=open; ~/services/sign-up.server).
// Works without JavaScript; errors come back under the fields with real status codes
// (400, 401, 403, 429).
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { Field, FormAlert, liveChecks } from "~/components/forms";
import { getEnv } from "~/env.server";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { LOGIN_ERRORS, clearToken } from "~/lib/auth-token";
import { isOwnOrigin } from "~/lib/own-origin";
import { SignInSchema } from "~/schemas/sign-in";
import { optionalUser } from "~/services/auth.server";
import { ensureLocalAuth, localSignIn, readForm } from "~/services/local-sign-in.server";
import { awaitingOwner, signUpAllowed } from "~/services/sign-up.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Sign in · ${BRAND}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await optionalUser(request)) throw redirect("/");
  const env = getEnv();
  // Opened under another name than this server's address (127.0.0.1 for localhost, or an address
  // PUBLIC_URL does not name): its forms would be refused as another site's, so the page says
  // which address to open. Behind a proxy the request's own address is the proxy's to say.
  const opened = new URL(request.url).origin;
  const direct = !request.headers.has("X-Forwarded-For") && !request.headers.has("X-Forwarded-Host");
  return {
    googleEnabled: env.googleEnabled,
    localAuthEnabled: env.localAuthEnabled,
    firstAccount: await awaitingOwner(),
    signUpOpen: await signUpAllowed(),
    useAddress: direct && !isOwnOrigin(opened, env.ownOrigins) ? { opened, publicUrl: env.publicUrl } : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  ensureLocalAuth();
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    if (error instanceof ApiError) throw new Response(error.message, { status: 400 });
    throw error;
  }
  const result = await localSignIn(request, context, form, "cookie");
  if ("response" in result) return result.response;
  const { status, message, fields = {} } = result.refusal;
  const fieldErrors = Object.fromEntries(
    Object.entries(fields)
      .filter((e): e is [string, string] => Boolean(e[1]))
      .map(([k, v]) => [k, [v]]),
  );
  // A message already shown under its field is not repeated above the form.
  const formErrors =
    Object.values(fields).includes(message) || (status === 400 && Object.keys(fieldErrors).length) ? [] : [message];
  return data(result.submission.reply({ formErrors, fieldErrors, hideFields: ["password"] }), { status });
}

export default function Login() {
  const { googleEnabled, localAuthEnabled, firstAccount, signUpOpen, useAddress } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const error = params.get("error");
  const errorText = error ? (LOGIN_ERRORS[error] ?? "Sign-in failed. Please try again.") : null;
  const [form, fields] = useForm({
    id: "local-sign-in",
    lastResult,
    ...liveChecks(SignInSchema),
  });

  // Whoever lands here is not signed in: a stored token is stale (docs/rules.md#sign-in-and-sessions).
  useEffect(() => clearToken(), []);

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-md p-8">
        <div className="mb-6 flex items-center gap-3">
          <div className="flex h-11 w-11 items-center justify-center rounded-xl bg-primary text-lg font-bold text-white">
            C
          </div>
          <span className="text-lg font-semibold text-slate-800">{BRAND}</span>
        </div>
        <h1 className="text-2xl font-bold text-slate-900">Welcome to {BRAND}</h1>
        <p className="mt-2 text-slate-600">Sign in to access your customer relationship management dashboard</p>

        {useAddress ? (
          <p
            role="alert"
            className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          >
            You opened this server at {useAddress.opened}, but its address is {useAddress.publicUrl}. Signing in works
            only there:{" "}
            <a className="font-medium underline" href={`${useAddress.publicUrl}/login`}>
              open {useAddress.publicUrl}
            </a>
            .
          </p>
        ) : null}

        {errorText ? (
          <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
            {errorText}
          </p>
        ) : null}

        <div className="mt-6">
          {googleEnabled ? (
            <a href="/api/auth/google" className="btn-secondary w-full py-3">
              <GoogleMark /> Sign in with Google
            </a>
          ) : (
            <>
              <button type="button" disabled className="btn-secondary w-full py-3">
                <GoogleMark /> Sign in with Google
              </button>
              <p className="mt-2 text-xs text-slate-500">
                Google sign-in is not configured on this server. An admin can enable it with GOOGLE_CLIENT_ID and
                GOOGLE_CLIENT_SECRET.
              </p>
            </>
          )}
        </div>

        {localAuthEnabled ? (
          <section aria-labelledby="local-heading" className="mt-6 border-t border-slate-200 pt-6">
            <h2 id="local-heading" className="text-sm font-semibold text-slate-800">
              {firstAccount ? "Create the owner's account" : "Local sign-in"}
            </h2>
            <p className="mt-1 text-xs text-slate-500">
              {firstAccount
                ? "This server has no accounts yet. The first one is its owner's: enter your name, e-mail and a password (at least 10 characters, hard to guess). As the owner you add the other people who work here."
                : signUpOpen
                  ? "Sign in with your e-mail and password. Anyone may create an account here: a new e-mail creates one with the name and password you enter (at least 10 characters, hard to guess)."
                  : "Sign in with your e-mail and password. New accounts are added by this server's owner."}
            </p>
            <Form method="post" action="/login" className="mt-3 space-y-3" {...getFormProps(form)}>
              <FormAlert id={form.errorId} errors={form.errors} />
              {signUpOpen ? (
                <Field
                  label="Name"
                  hint={firstAccount ? undefined : "Only needed to create a new account"}
                  inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
                  errors={fields.name.errors}
                />
              ) : null}
              <Field
                label="E-mail"
                inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
                errors={fields.email.errors}
              />
              <Field
                label="Password"
                inputProps={{
                  ...getInputProps(fields.password, { type: "password" }),
                  autoComplete: firstAccount ? "new-password" : "current-password",
                }}
                errors={fields.password.errors}
              />
              <button type="submit" className="btn-primary w-full" disabled={navigation.state !== "idle"}>
                {navigation.state !== "idle"
                  ? "Signing in..."
                  : firstAccount
                    ? "Create account and sign in"
                    : "Sign in locally"}
              </button>
            </Form>
          </section>
        ) : null}

        <p className="mt-6 text-center text-xs text-slate-500">
          By signing in, you agree to our Terms of Service and Privacy Policy.
        </p>
      </div>
    </main>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 48 48">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}
