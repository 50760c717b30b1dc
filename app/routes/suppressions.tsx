// /suppressions: the signed-in user's suppression list, the addresses that get no campaign e-mail
// (docs/decisions/0023-unsubscribe-and-suppression.md). Search on the address, 50 a page newest
// first, each row's reason, source campaign and date; Remove (with a confirmation that says the
// address gets campaign e-mail again); an "Add addresses" form (one a line or comma separated, each
// checked, the bad ones named); Import CSV (/suppressions/import) and Export CSV
// (/suppressions/export). Links, GET forms and form posts throughout, so all of it works without
// JavaScript. On a phone the rows are cards (ResponsiveTable).
import { getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { MailX, Plus } from "lucide-react";
import { CsvListActions } from "~/components/csv-list-actions";
import { z } from "zod";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DateTime } from "~/components/date-time";
import { useDelegatedLinks } from "~/components/fast-rows";
import { FormAlert, liveChecks, TextareaField } from "~/components/forms";
import { IntentForm } from "~/components/intent-form";
import { ListSearch } from "~/components/list-search";
import { Pager } from "~/components/pager";
import { CardCell, ColumnHeader, EmptyRow, ListTable } from "~/components/list-table";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { SubmitButton } from "~/components/submit-button";
import { ReasonChip } from "~/components/suppression-chips";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { pageSummary } from "~/lib/customers";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { formatCount } from "~/lib/numbers";
import { invariantResponse } from "~/lib/responses";
import { listAddress } from "~/lib/list-address";
import { withSearchParams } from "~/lib/search-params";
import { addedMessage } from "~/lib/suppression-texts";
import { AddSuppressionsFormSchema, RemoveSuppressionFormSchema } from "~/schemas/suppression-form";
import { pageSearchTerm } from "~/schemas/search";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import {
  addSuppressionsByHand,
  listSuppressionsPage,
  resubscribe,
  suppressionOf,
} from "~/services/suppressions.server";
import { PageHeader } from "~/components/page-header";
import { useResetAfterPost } from "~/components/reset-after-post";

const PAGE_SIZE = 50;

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Suppressions · ${BRAND}` }];

/** The list's place in the address (listAddress() refuses one that is not one of ours). */
const ListParamsSchema = z.object({
  page: z.coerce
    .number({ message: "page must be a whole number, 1 or more" })
    .int("page must be a whole number, 1 or more")
    .min(1, "page must be a whole number, 1 or more")
    .max(1_000_000_000, "page must be a whole number, 1 or more")
    .optional(),
  remove: z.string().max(1000).optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const q = pageSearchTerm(params)?.trim() || null;
  const { page: asked = 1, remove } = listAddress(ListParamsSchema, params);
  const [first, removing] = await Promise.all([
    listSuppressionsPage(user.id, { q, page: asked, pageSize: PAGE_SIZE }),
    remove ? suppressionOf(user.id, remove) : null,
  ]);
  // A page past the end (the last rows of the last page were removed): the last page there is.
  const lastPage = Math.max(1, Math.ceil(first.total / PAGE_SIZE));
  const page =
    first.items.length === 0 && asked > lastPage
      ? await listSuppressionsPage(user.id, { q, page: lastPage, pageSize: PAGE_SIZE })
      : first;
  return { page, q, removing: removing ? { email: removing.email } : null };
}

const ADD_FAILED = "Failed to add the addresses. Please try again.";
const REMOVE_FAILED = "Failed to remove the address. Please try again.";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const formData = await request.formData();

  if (formData.get("intent") === "remove") {
    const submission = parseWithZod(formData, { schema: RemoveSuppressionFormSchema });
    if (submission.status !== "success")
      return redirectWithFlash(request, "/suppressions", { kind: "toast", type: "error", message: REMOVE_FAILED });
    const { email, back: asked } = submission.value;
    const back = asked?.startsWith("/suppressions") ? asked : "/suppressions";
    // An address that is no longer on the list (removed already, in another tab) is a 404 that says so.
    invariantResponse(await resubscribe(user.id, email), `Remove failed: ${email} is not on the suppression list`);
    return redirectWithFlash(request, back, {
      kind: "toast",
      type: "success",
      message: `${email} removed from the suppression list`,
    });
  }

  const submission = parseWithZod(formData, { schema: AddSuppressionsFormSchema });
  if (submission.status !== "success") return replyUnfinished(submission);
  let outcome: { added: number; alreadySuppressed: number };
  try {
    outcome = await addSuppressionsByHand(user.id, submission.value.emails);
  } catch (error) {
    return replyRefused(submission, error, error instanceof ApiError ? error.message : ADD_FAILED);
  }
  return redirectWithFlash(request, "/suppressions", {
    kind: "toast",
    type: "success",
    message: addedMessage(outcome),
  });
}

export default function Suppressions() {
  const { page, q, removing } = useLoaderData<typeof loader>();
  const addResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const onRowsClick = useDelegatedLinks();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/suppressions";
  const submittingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const adding = submittingIntent === "add";

  const [form, fields] = useForm({
    id: "add-suppressions",
    lastResult: addResult,
    ...liveChecks(AddSuppressionsFormSchema),
  });

  // After addresses were added (the action redirected: no reply), the form starts empty again.
  useResetAfterPost(adding, addResult, () => form.reset());

  const href = (changes: Record<string, string | null>) => withSearchParams(params, changes, "/suppressions");
  const listHref = href({ remove: null });
  const lastPage = Math.max(1, Math.ceil(page.total / page.pageSize));
  const pageHref = (n: number) => href({ page: n > 1 ? String(n) : null, remove: null });
  const start = page.items.length ? (page.page - 1) * page.pageSize + 1 : null;
  const links = {
    first: page.page > 1 ? pageHref(1) : null,
    prev: page.page > 1 ? pageHref(page.page - 1) : null,
    next: page.page < lastPage ? pageHref(page.page + 1) : null,
    last: page.page < lastPage ? pageHref(lastPage) : null,
  };

  return (
    <div className="mx-auto max-w-7xl space-y-4">
      <PageHeader
        title="Suppressions"
        actions={
          <CsvListActions
            importTo="/suppressions/import"
            exportId="suppressions-export"
            exportAction="/suppressions/export"
          >
            <a href="#add-addresses" className="btn-primary">
              <Plus className="h-4 w-4" aria-hidden /> Add addresses
            </a>
          </CsvListActions>
        }
      >
        <p className="text-slate-600">Addresses here get no campaign e-mail, whatever segment they are in.</p>
        <p className="text-sm text-slate-500" data-testid="suppression-count">
          {formatCount(page.total)}{" "}
          {q ? `matching “${q}”` : page.total === 1 ? "suppressed address" : "suppressed addresses"}
        </p>
      </PageHeader>

      <div className="card flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
        <ListSearch id="suppression-search" label="Search suppressed addresses" placeholder="Search by email" q={q} />
      </div>

      <RowActionSprite />
      <section className="card overflow-hidden" aria-label="Suppressed addresses" aria-busy={searching}>
        <div className="sm:overflow-x-auto">
          <ListTable
            onRowsClick={onRowsClick}
            head={
              <>
                <ColumnHeader>Email</ColumnHeader>
                <ColumnHeader>Reason</ColumnHeader>
                <ColumnHeader>Campaign</ColumnHeader>
                <ColumnHeader>Added</ColumnHeader>
                <ColumnHeader className="px-4 py-3 text-right">Actions</ColumnHeader>
              </>
            }
          >
            {page.items.length === 0 ? (
              <EmptyRow colSpan={5} icon={MailX} title="No suppressed addresses" textClassName="mx-auto max-w-xl">
                {q
                  ? `No address on the list contains “${q}”.`
                  : "Addresses come here when a customer unsubscribes, when an e-mail hard-bounces or is marked as spam, and when you add them by hand or import a list."}
              </EmptyRow>
            ) : (
              page.items.map((s) => (
                <tr key={s.email} className="hover:bg-slate-50" data-testid="suppression-row">
                  <td className="break-all px-4 py-3 font-medium text-slate-900">{s.email}</td>
                  <CardCell label="Reason" className="px-4 py-3">
                    <ReasonChip reason={s.reason} />
                    {s.details ? (
                      <p className="mt-1 break-words text-xs text-slate-500" data-testid="suppression-details">
                        {s.details}
                      </p>
                    ) : null}
                  </CardCell>
                  <CardCell label="Campaign" className="px-4 py-3 text-slate-700">
                    {s.campaignName || "—"}
                  </CardCell>
                  <CardCell label="Added" className="whitespace-nowrap px-4 py-3 text-slate-600">
                    <DateTime value={s.createdAt} />
                  </CardCell>
                  <RowActions
                    className="px-4 py-3 text-right"
                    actions={[
                      {
                        icon: "delete",
                        href: href({ remove: s.email }),
                        label: `Remove ${s.email}`,
                        title: "Remove from the list",
                      },
                    ]}
                  />
                </tr>
              ))
            )}
          </ListTable>
        </div>
        <Pager summary={pageSummary(start, page.items.length, page.total, false)} links={links} />
      </section>

      <section
        className="card grid gap-4 p-6 lg:grid-cols-3"
        aria-labelledby="add-suppressions-heading"
        // Not the form's id ("add-suppressions", which the textarea's form attribute names): two
        // elements with one id would leave the textarea without its form, and its text unsent.
        id="add-addresses"
      >
        <div>
          <h3 id="add-suppressions-heading" className="font-semibold text-slate-900">
            Add addresses
          </h3>
          <p className="mt-1 text-sm text-slate-600">
            They get no campaign e-mail from now on, whatever segment they are in. Customers with these addresses stay
            in your lists. For a long list,{" "}
            <Link to="/suppressions/import" className="font-medium text-primary hover:underline">
              import a CSV file
            </Link>
            .
          </p>
        </div>
        <IntentForm form={form} intent="add" className="space-y-4 lg:col-span-2">
          <FormAlert id={form.errorId} errors={form.errors} />
          <TextareaField
            label="Email addresses"
            required
            hint="One a line, or separated by commas."
            textareaProps={{
              ...getTextareaProps(fields.emails),
              rows: 4,
              autoComplete: "off",
              spellCheck: false,
              placeholder: "asha@example.com\nravi@example.com",
            }}
            errors={fields.emails.errors}
          />
          <div className="flex justify-end">
            <SubmitButton className="btn-primary" busy={adding} busyLabel="Adding..." icon={Plus}>
              Add to the list
            </SubmitButton>
          </div>
        </IntentForm>
      </section>

      <ConfirmDialog
        open={Boolean(removing)}
        title="Remove from the suppression list"
        message={
          removing ? (
            <p>
              Remove <strong className="break-all">{removing.email}</strong> from the suppression list? The address will
              get campaign e-mail again.
            </p>
          ) : null
        }
        cancelHref={listHref}
        action="/suppressions"
        fields={{ intent: "remove", email: removing?.email ?? "", back: listHref }}
        confirmLabel="Remove"
      />
    </div>
  );
}
