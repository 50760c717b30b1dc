// /users: the owner's screen of who has an account on this install (the owner is its oldest
// account; to anyone else the screen is a 404). The owner adds a person by name and e-mail (an
// account of their own, empty, with no password yet) and gets a one-time link to hand them, which
// lets them set a password within PASSWORD_LINK_DAYS; "New password link" makes another for a
// person who has not signed in yet (an account in use keeps its own password: a link would let the
// owner sign in as them). Plain form posts: it works without JavaScript.
import { getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { UserPlus } from "lucide-react";
import { useEffect } from "react";
import { DateTime } from "~/components/date-time";
import { Field, FormAlert, liveChecks } from "~/components/forms";
import { IntentForm, usePostingIntent } from "~/components/intent-form";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { AddPersonSchema } from "~/schemas/person";
import { requireUser } from "~/services/auth.server";
import { PASSWORD_LINK_DAYS } from "~/lib/password-link";
import { addPerson, listPeople, newPasswordLink } from "~/services/people.server";
import { SubmitButton } from "~/components/submit-button";
import { TitledCard } from "~/components/titled-card";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Users · ${BRAND}` }];

/** A service's refusal as the page's answer: a 404 for anyone but the owner, its status otherwise. */
function asResponse(error: unknown): never {
  if (error instanceof ApiError)
    throw new Response(error.message, {
      status: error.status,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  throw error;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const people = await listPeople(user.id).catch(asResponse);
  return { people, linkDays: PASSWORD_LINK_DAYS };
}

const ADD_FAILED = "Failed to add this person. Please try again.";

type LinkReply = { link: { person: string; url: string } };

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const formData = await request.formData();
  if (formData.get("intent") === "link") {
    const id = formData.get("userId");
    if (typeof id !== "string" || id === "") throw new Response("Choose whose link to make", { status: 400 });
    const made = await newPasswordLink(user.id, id).catch(asResponse);
    return data<LinkReply>({ link: { person: made.person, url: made.link } });
  }
  const submission = parseWithZod(formData, { schema: AddPersonSchema });
  if (submission.status !== "success") return replyUnfinished(submission);
  let made: { person: string; link: string };
  try {
    made = await addPerson(user.id, submission.value);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) asResponse(error);
    return replyRefused(submission, error, error instanceof ApiError ? error.message : ADD_FAILED);
  }
  return data<LinkReply>({ link: { person: made.person, url: made.link } });
}

export default function Users() {
  const { people, linkDays } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const made = reply && "link" in reply ? reply.link : null;
  const adding = usePostingIntent("add");

  const [form, fields] = useForm({
    id: "add-person",
    lastResult: reply && !("link" in reply) ? reply : undefined,
    ...liveChecks(AddPersonSchema),
  });

  // After a person was added, the form starts empty again for the next one.
  useEffect(() => {
    if (made) form.reset();
    // form.reset is stable for this form id; the link shown is what changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [made?.url]);

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div>
        <h2 className="text-2xl font-bold text-slate-900">Users</h2>
        <p className="text-slate-600">
          Everyone with an account on this server. Each account has its own customers, orders, segments and campaigns;
          only you, the owner, see this list.
        </p>
      </div>

      {made ? (
        <section role="status" aria-labelledby="link-heading" className="card border-green-200 bg-green-50 p-4">
          <h3 id="link-heading" className="font-semibold text-green-900">
            Send this link to {made.person}
          </h3>
          <p className="mt-1 text-sm text-green-900">
            It lets them set a password once, within {linkDays} days; then they sign in with their e-mail and that
            password. It is shown only now: anyone who has it can set the password, so send it to them alone.
          </p>
          <label htmlFor="password-link" className="sr-only">
            One-time link
          </label>
          <input
            id="password-link"
            readOnly
            value={made.url}
            onFocus={(event) => event.currentTarget.select()}
            className="input mt-2 w-full font-mono text-xs"
          />
        </section>
      ) : null}

      <TitledCard
        headingId="add-heading"
        title="Add a person"
        className="card p-4"
        headingClassName="font-semibold text-slate-900"
      >
        <p className="text-sm text-slate-600">
          They get an account of their own, empty, and a link to set its password.
        </p>
        <IntentForm form={form} intent="add" className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
          <div className="sm:col-span-3">
            <FormAlert id={form.errorId} errors={form.errors} />
          </div>
          <Field
            label="Name"
            inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
            errors={fields.name.errors}
          />
          <Field
            label="E-mail"
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
            errors={fields.email.errors}
          />
          <SubmitButton className="btn-primary sm:mt-6" busy={adding} busyLabel="Adding..." icon={UserPlus}>
            Add and make a link
          </SubmitButton>
        </IntentForm>
      </TitledCard>

      <section className="card overflow-hidden" aria-label="Accounts">
        <ListTable
          head={
            <>
              <ColumnHeader>Name</ColumnHeader>
              <ColumnHeader>E-mail</ColumnHeader>
              <ColumnHeader>Signs in with</ColumnHeader>
              <ColumnHeader>Added</ColumnHeader>
              <ColumnHeader>
                <span className="sr-only">Actions</span>
              </ColumnHeader>
            </>
          }
        >
          {people.map((person) => (
            <tr key={person.id}>
              <td className="px-4 py-3 font-medium text-slate-900">
                {person.name}
                {person.owner ? (
                  <span className="ml-2 rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary">
                    Owner
                  </span>
                ) : null}
              </td>
              <CardCell label="E-mail" className="px-4 py-3 text-slate-700">
                {person.email}
              </CardCell>
              <CardCell label="Signs in with" className="px-4 py-3 text-slate-700">
                {person.signIn === "none yet"
                  ? "Not signed in yet"
                  : person.signIn === "google"
                    ? "Google"
                    : "Password"}
              </CardCell>
              <CardCell label="Added" className="px-4 py-3 text-slate-700">
                <DateTime value={person.createdAt} />
              </CardCell>
              <td className="px-4 py-3 text-right">
                {/* Only for someone who has not signed in yet: an account in use keeps its password. */}
                {person.signIn !== "none yet" ? null : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="link" />
                    <input type="hidden" name="userId" value={person.id} />
                    <button
                      type="submit"
                      className="btn-secondary text-xs"
                      aria-label={`New password link for ${person.name}`}
                    >
                      New password link
                    </button>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </ListTable>
      </section>
    </div>
  );
}
