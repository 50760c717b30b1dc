// /u/TOKEN: the public unsubscribe page of a campaign's recipient, outside the app shell, with no
// sign-in; the token is the only credential (app/services/unsubscribe.server.ts).
//
// - GET (and HEAD) shows where the address stands and never changes it: link scanners fetch every
//   URL of a message.
// - POST with `List-Unsubscribe=One-Click` (RFC 8058: a mailbox provider's one-click button, form
//   URL-encoded or multipart, no cookie, no CSRF token, any Origin) unsubscribes at once, and so
//   does the page's Unsubscribe button (`intent=unsubscribe`); `intent=resubscribe` undoes an
//   unsubscribe. The answer is the page in its new state, 200 (RFC 8058 allows no redirect). Both
//   buttons are plain forms: they work without JavaScript.
// - A token this server did not seal, altered in any character, or of a tenant who no longer
//   exists is a 404 that changes nothing.
//
// server/app.ts lets this path's POSTs through its cross-site check (and drops their Origin, which
// Remix would otherwise compare with Host) and logs the path as /u/[token].
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  data,
  isRouteErrorResponse,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { z } from "zod";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { invariantResponse } from "~/lib/responses";
import {
  type ResubscribeOutcome,
  type UnsubscribeView,
  resubscribeWithToken,
  unsubscribeView,
  unsubscribeWithToken,
} from "~/services/unsubscribe.server";

/** Every answer of this page: never cached or indexed, and its address (the token) never sent on as a Referer. */
const PUBLIC_PAGE_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex",
} as const;

export const headers: HeadersFunction = (args) => {
  // A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
  const headers = keepAllowHeader(args);
  for (const [name, value] of Object.entries(PUBLIC_PAGE_HEADERS)) headers.set(name, value);
  return headers;
};

export const meta: MetaFunction<typeof loader> = ({ data: view }) => [
  { title: view ? `Unsubscribe · ${senderLabel(view.senderName)}` : "Unsubscribe" },
  { name: "robots", content: "noindex" },
];

const NOT_FOUND =
  "This unsubscribe link is not valid. Check that you opened the whole link from the e-mail, or use the link of a newer message.";

/** What a POST asks for: RFC 8058's one-click body, or one of the page's two buttons. */
const PostSchema = z.union([
  z.object({ "List-Unsubscribe": z.literal("One-Click") }).transform(() => "unsubscribe" as const),
  z.object({ intent: z.enum(["unsubscribe", "resubscribe"]) }).transform((v) => v.intent),
]);

export async function loader({ request, params }: LoaderFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const view = await unsubscribeView(params.token ?? "");
  invariantResponse(view, NOT_FOUND);
  return view;
}

export type UnsubscribeActionData = { done: "unsubscribed" | ResubscribeOutcome };

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const token = params.token ?? "";
  let form: FormData | null = null;
  try {
    form = await request.formData();
  } catch {
    // Not a form, or a malformed one: answered below, after the token (a bad token is a 404 whatever the body).
  }
  const asked = form ? PostSchema.safeParse(Object.fromEntries(form)) : null;
  if (!asked?.success) {
    invariantResponse(await unsubscribeView(token), NOT_FOUND);
    throw data("Send List-Unsubscribe=One-Click to unsubscribe, or use the button on this page.", { status: 400 });
  }
  if (asked.data === "unsubscribe") {
    invariantResponse(await unsubscribeWithToken(token), NOT_FOUND);
    return { done: "unsubscribed" } satisfies UnsubscribeActionData;
  }
  const resubscribed = await resubscribeWithToken(token);
  invariantResponse(resubscribed, NOT_FOUND);
  return { done: resubscribed.outcome } satisfies UnsubscribeActionData;
}

/** The sender's name as the page says it; "this sender" when the tenant has no name at all. */
function senderLabel(name: string): string {
  return name || "this sender";
}

const BLOCKED_REASONS: Record<NonNullable<UnsubscribeView["reason"]>, string> = {
  "hard-bounced": "Mail to this address could not be delivered, so it was taken off the mailing list.",
  "soft-bounced": "Mail to this address kept coming back undelivered, so it was taken off the mailing list.",
  complained: "Mail to this address was reported as unwanted, so it was taken off the mailing list.",
  manual: "The sender took this address off their mailing list.",
};

export default function UnsubscribePage() {
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const sender = senderLabel(view.senderName);
  const done = actionData?.done;

  return (
    <PublicCard>
      {view.state === "subscribed" ? (
        <>
          <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">
            {done === "resubscribed" ? "You are subscribed again" : `Unsubscribe from ${sender}?`}
          </h1>
          <p role="status" className="mt-3 text-slate-600">
            {done === "resubscribed" ? (
              <>
                {sender} can send e-mail to <Address masked={view.maskedEmail} /> again.
              </>
            ) : (
              <>
                You get e-mail from {sender} at <Address masked={view.maskedEmail} />. Unsubscribe, and they will send
                you no more.
              </>
            )}
          </p>
          <Form method="post" className="mt-6">
            <button type="submit" name="intent" value="unsubscribe" className="btn-primary w-full py-3" disabled={busy}>
              {busy ? "Unsubscribing..." : "Unsubscribe"}
            </button>
          </Form>
        </>
      ) : view.state === "unsubscribed" ? (
        <>
          <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">You are unsubscribed</h1>
          <p role="status" className="mt-3 text-slate-600">
            You will not get more e-mail from {sender} at <Address masked={view.maskedEmail} />.
          </p>
          <div className="mt-6 border-t border-slate-200 pt-5">
            <p className="text-sm text-slate-600">Unsubscribed by mistake?</p>
            <Form method="post" className="mt-3">
              <button
                type="submit"
                name="intent"
                value="resubscribe"
                className="btn-secondary w-full py-3"
                disabled={busy}
              >
                {busy ? "Resubscribing..." : "Resubscribe"}
              </button>
            </Form>
          </div>
        </>
      ) : (
        <>
          <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">You get no e-mail from {sender}</h1>
          <p role="status" className="mt-3 text-slate-600">
            <Address masked={view.maskedEmail} /> is not on their mailing list.{" "}
            {view.reason ? BLOCKED_REASONS[view.reason] : null}
          </p>
          <p className={done === "refused" ? "mt-4 font-medium text-slate-800" : "mt-4 text-sm text-slate-600"}>
            This address cannot be resubscribed from this link. To get their e-mail again, please contact {sender}.
          </p>
        </>
      )}
    </PublicCard>
  );
}

/** The masked address, kept on one line. */
function Address({ masked }: { masked: string }) {
  return <span className="whitespace-nowrap font-medium text-slate-800">{masked}</span>;
}

/** A small centred card on an empty page: no app shell, no navigation. */
function PublicCard({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div className="card w-full max-w-md p-6 sm:p-8">{children}</div>
    </main>
  );
}

/** A bad link (404), a bad request (400) or a method this page does not take (405), on the same card. */
export function ErrorBoundary() {
  const error = useRouteError();
  const known = isRouteErrorResponse(error) && typeof error.data === "string" && error.data !== "";
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <PublicCard>
      <h1 className="text-xl font-semibold text-slate-900">
        {notFound ? "Link not valid" : known ? "This did not work" : "Something went wrong"}
      </h1>
      <p role="alert" className="mt-3 text-slate-600">
        {known ? error.data : "Something went wrong on our side. Please try the link again in a few minutes."}
      </p>
    </PublicCard>
  );
}
