// /customers: search on name or e-mail, the six columns, the Visits chip highlighted
// above 5, view and delete (with a confirmation that says the customer's orders go too), Add
// Customer, Import CSV and Export CSV. Sorted by a column header (or the Sort by form, which also
// offers the date added and is the control on a phone), kept in the address as ?sort=&order=.
// Pages are read on the server 50 at a time with a keyset cursor (?cursor= for Next, ?before= for
// Previous, ?last=1 for the last page); the footer says where the user is ("1–50 of 2,000", the
// first row's position carried as ?start=) and how many there are. All of it is links and GET
// forms, so it works without JavaScript. On a phone the rows are cards (ResponsiveTable). Each row
// has a checkbox; "Tag selected" puts a tag on the customers ticked on the page (a form post).
import { pageSearchTerm } from "~/schemas/search";
import { getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { Plus, Tag, Users } from "lucide-react";
import { useRef } from "react";
import { CsvListActions } from "~/components/csv-list-actions";
import { z } from "zod";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { ErrorList, liveChecks } from "~/components/forms";
import { IntentForm, usePostingIntent } from "~/components/intent-form";
import { ListSearch } from "~/components/list-search";
import { Pager } from "~/components/pager";
import { useDelegatedLinks } from "~/components/fast-rows";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { CardCell, ColumnHeader, EmptyRow, ListTable, SortableColumnHeader } from "~/components/list-table";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import {
  CUSTOMER_SORTS,
  customerDisplayName,
  DEFAULT_SORT,
  defaultOrder,
  isVisitsHighlighted,
  pageSummary,
  SORT_ORDERS,
  type CustomerSort,
} from "~/lib/customers";
import { DateTime } from "~/components/date-time";
import { formatRupees } from "~/lib/money";
import { replyUnfinished } from "~/lib/forms.server";
import { orRespond, refusedWith } from "~/lib/responses";
import { BulkTagFormSchema } from "~/schemas/tag-form";
import { requireUser } from "~/services/auth.server";
import {
  customerOrderCount,
  deleteCustomer,
  getCustomer,
  listCustomers,
  normaliseQuery,
} from "~/services/customers.server";
import { redirectWithFlash } from "~/services/session.server";
import { tagInBulk } from "~/services/tags.server";
import { listAddress } from "~/lib/list-address";
import { withSearchParams } from "~/lib/search-params";
import { PageHeader } from "~/components/page-header";
import { useHydrated } from "~/components/hydrated";
import { useResetAfterPost } from "~/components/reset-after-post";
import { SubmitButton } from "~/components/submit-button";

const PAGE_SIZE = 50;

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Customers · ${BRAND}` }];

/** The list's place in the address (listAddress() refuses one that is not one of ours). */
const ListParamsSchema = z.object({
  sort: z.enum(CUSTOMER_SORTS, { message: `sort must be one of ${CUSTOMER_SORTS.join(", ")}` }).optional(),
  order: z.enum(SORT_ORDERS, { message: `order must be ${SORT_ORDERS.join(" or ")}` }).optional(),
  cursor: z.string().max(1000).optional(),
  before: z.string().max(1000).optional(),
  last: z.literal("1").optional(),
  // Only what the footer says; a position out of reach shows as unknown.
  start: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().catch(undefined),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const q = normaliseQuery(pageSearchTerm(params));
  const address = listAddress(ListParamsSchema, params);
  const { sort = DEFAULT_SORT, cursor, before, last, start: startParam } = address;
  const order = address.order ?? defaultOrder(sort);
  const deleteId = params.get("delete");
  const list = async () => {
    try {
      return await listCustomers(user.id, { q, sort, order, limit: PAGE_SIZE, cursor, before, last: last === "1" });
    } catch (error) {
      // A cursor of another sort or an old address: the first page, as a list opened afresh.
      if (!(error instanceof ApiError) || error.code !== "bad_request") throw error;
      return listCustomers(user.id, { q, sort, order, limit: PAGE_SIZE });
    }
  };
  const [page, deleting] = await Promise.all([list(), deleteId ? deletionTarget(user.id, deleteId) : null]);
  const shown = page.customers.length;
  // Where the first row stands: known at either end (exactly, when the total is), else carried.
  const start =
    page.at === "first" || page.at === "only"
      ? 1
      : page.at === "last"
        ? page.totalCapped
          ? null
          : Math.max(1, page.total - shown + 1)
        : (startParam ?? null);
  return { page, q, start, deleting };
}

async function deletionTarget(userId: string, id: string) {
  try {
    const customer = await getCustomer(userId, id);
    return { id, name: customerDisplayName(customer), orders: await customerOrderCount(userId, id) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A customer that is gone, or another user's, opens no dialog: the list shows as it is.
    return null;
  }
}

/** The confirm dialog's form: hidden fields only, and where to go back to afterwards. */
const DeleteSchema = z.object({ intent: z.literal("delete"), id: z.string().min(1), back: z.string().optional() });

/** Where a form of the list goes back to: the list's own address it came from, else the list. */
const backTo = (asked: string | undefined) => (asked?.startsWith("/customers") ? asked : "/customers");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const formData = await request.formData();
  if (formData.get("intent") === "tag") {
    const tagging = parseWithZod(formData, { schema: BulkTagFormSchema });
    if (tagging.status !== "success") return replyUnfinished(tagging);
    const { tag, customerIds } = tagging.value;
    const { tag: name, tagged } = await tagInBulk(user.id, tag, { customerIds });
    const selected = new Set(customerIds).size;
    const message =
      tagged === selected
        ? `${formatCount(tagged)} ${tagged === 1 ? "customer" : "customers"} got the tag "${name}"`
        : `${formatCount(tagged)} of ${formatCount(selected)} selected customers got the tag "${name}"; the others have it already`;
    return redirectWithFlash(request, backTo(tagging.value.back), { kind: "toast", type: "success", message });
  }
  const submission = parseWithZod(formData, { schema: DeleteSchema });
  if (submission.status !== "success") {
    return redirectWithFlash(request, "/customers", {
      kind: "toast",
      type: "error",
      message: "Failed to delete customer. Please try again.",
    });
  }
  const { id, back: asked } = submission.value;
  const back = backTo(asked);
  // A customer that is gone (deleted already, or another user's) is a 404 with its message.
  await orRespond(deleteCustomer(user.id, id), refusedWith("Delete failed"));
  return redirectWithFlash(request, back, { kind: "toast", type: "success", message: "Customer deleted successfully" });
}

const SORT_LABELS: Record<CustomerSort, string> = {
  name: "Name",
  totalSpend: "Total spend",
  visits: "Visits",
  lastActive: "Last active",
  createdAt: "Date added",
};

export default function Customers() {
  const { page, q, start, deleting } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const submit = useSubmit();
  const navigation = useNavigation();
  const onRowsClick = useDelegatedLinks();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/customers";

  const href = (changes: Record<string, string | null>) => withSearchParams(params, changes, "/customers");
  const listHref = href({ delete: null });
  const shown = page.customers.length;
  // A page address: the sort stays, the place changes (the trail of older addresses is dropped).
  const pageHref = (place: { cursor?: string; before?: string; last?: boolean; start?: number | null }) =>
    href({
      cursor: place.cursor ?? null,
      before: place.before ?? null,
      last: place.last ? "1" : null,
      start: place.start ? String(place.start) : null,
      trail: null,
      delete: null,
    });
  const atStart = page.at === "first" || page.at === "only";
  const atEnd = page.at === "last" || page.at === "only";
  const firstHref = atStart ? null : pageHref({});
  const prevHref =
    atStart || !page.prevCursor
      ? null
      : pageHref({ before: page.prevCursor, start: start !== null ? Math.max(1, start - PAGE_SIZE) : null });
  const nextHref =
    atEnd || !page.nextCursor
      ? null
      : pageHref({ cursor: page.nextCursor, start: start !== null ? start + shown : null });
  const lastHref = atEnd ? null : pageHref({ last: true });
  const summary = pageSummary(start, shown, page.total, page.totalCapped);
  const sortDefault = page.sort === DEFAULT_SORT && page.order === defaultOrder(DEFAULT_SORT);
  /** A header's link: this column in its natural order, or the other way when it is the current one. */
  const sortHref = (sort: CustomerSort) =>
    withSearchParams(
      params,
      {
        sort,
        order: page.sort === sort ? (page.order === "asc" ? "desc" : "asc") : defaultOrder(sort),
        cursor: null,
        before: null,
        last: null,
        start: null,
        trail: null,
        delete: null,
      },
      "/customers",
    );
  const sortHeader = (sort: CustomerSort, label: string, className: string, align = "") => (
    <SortableColumnHeader
      label={label}
      title={`Sort by ${SORT_LABELS[sort].toLowerCase()}`}
      href={sortHref(sort)}
      order={page.sort === sort ? page.order : null}
      className={className}
      align={align}
    />
  );

  return (
    <div className="mx-auto max-w-7xl space-y-4">
      <PageHeader
        title="Customers"
        actions={
          <CsvListActions
            importTo="/customers/import"
            exportId="customers-export"
            exportAction="/customers/export"
            exportFields={{ q }}
          >
            <Link to="/customers/new" className="btn-primary">
              <Plus className="h-4 w-4" aria-hidden /> Add Customer
            </Link>
          </CsvListActions>
        }
      >
        <p className="text-slate-600">
          {page.totalCapped ? `${formatCount(page.total)}+` : formatCount(page.total)}{" "}
          {q ? `matching “${q}”` : page.total === 1 ? "customer" : "customers"}
        </p>
      </PageHeader>

      <div className="card flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
        <ListSearch id="customer-search" label="Search customers" placeholder="Search by name or email" q={q}>
          {sortDefault ? null : (
            <>
              <input type="hidden" name="sort" value={page.sort} />
              <input type="hidden" name="order" value={page.order} />
            </>
          )}
        </ListSearch>
        <Form
          method="get"
          aria-label="Sort customers"
          className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-2 text-sm sm:border-l sm:border-t-0 sm:pl-3 sm:pt-0"
          key={`${page.sort}-${page.order}`}
        >
          {q ? <input type="hidden" name="q" value={q} /> : null}
          <label htmlFor="customer-sort" className="text-slate-600">
            Sort by
          </label>
          <select
            id="customer-sort"
            name="sort"
            defaultValue={page.sort}
            className="rounded-md border border-slate-300 bg-white py-1 pl-2 pr-7 text-sm"
            onChange={(event) => {
              // A new column starts in its natural order (names A to Z, figures largest first).
              const form = event.currentTarget.form;
              const order = form?.elements.namedItem("order");
              if (order instanceof HTMLSelectElement)
                order.value = defaultOrder(event.currentTarget.value as CustomerSort);
              if (form) submit(form, { preventScrollReset: true });
            }}
          >
            {CUSTOMER_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
          <label htmlFor="customer-order" className="sr-only">
            Order
          </label>
          <select
            id="customer-order"
            name="order"
            defaultValue={page.order}
            className="rounded-md border border-slate-300 bg-white py-1 pl-2 pr-7 text-sm"
            onChange={(event) => {
              const form = event.currentTarget.form;
              if (form) submit(form, { preventScrollReset: true });
            }}
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
          <noscript>
            <button type="submit" className="btn-secondary">
              Sort
            </button>
          </noscript>
        </Form>
      </div>

      <RowActionSprite />
      <section className="card overflow-hidden" aria-label="Customer list" aria-busy={searching}>
        {page.customers.length > 0 ? <TagSelected back={listHref} /> : null}
        <div className="sm:overflow-x-auto">
          <ListTable
            onRowsClick={onRowsClick}
            head={
              <>
                {sortHeader("name", "Customer", "px-4 py-3")}
                <ColumnHeader>Contact</ColumnHeader>
                {sortHeader("totalSpend", "Total Spend", "px-4 py-3 text-right", "justify-end")}
                {sortHeader("visits", "Visits", "px-4 py-3 text-center", "justify-center")}
                {sortHeader("lastActive", "Last Active", "px-4 py-3")}
                <ColumnHeader className="px-4 py-3 text-right">Actions</ColumnHeader>
              </>
            }
          >
            {page.customers.length === 0 ? (
              <EmptyRow colSpan={6} icon={Users} title="No customers found">
                {q ? `No customer's name or email contains “${q}”.` : "Add your first customer or import a CSV file."}
              </EmptyRow>
            ) : (
              page.customers.map((c) => <CustomerRow key={c.id} customer={c} deleteHref={href({ delete: c.id })} />)
            )}
          </ListTable>
        </div>
        <Pager summary={summary} links={{ first: firstHref, prev: prevHref, next: nextHref, last: lastHref }} />
      </section>

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete Customer"
        message={
          deleting ? (
            <p>
              Are you sure you want to delete <strong>{deleting.name}</strong>?{" "}
              {deleting.orders > 0
                ? `Their ${deleting.orders} ${deleting.orders === 1 ? "order is" : "orders are"} deleted too. `
                : "Their orders are deleted too. "}
              This action cannot be undone.
            </p>
          ) : null
        }
        cancelHref={listHref}
        action="/customers"
        fields={{ intent: "delete", id: deleting?.id ?? "", back: listHref }}
        confirmLabel="Delete"
      />
    </div>
  );
}

/** The id of the "Tag selected" form, which the rows' checkboxes belong to (their form attribute). */
const TAG_FORM = "tag-selected";

/** "Tag selected": a tag for the customers ticked on this page. */
function TagSelected({ back }: { back: string }) {
  const reply = useActionData<typeof action>();
  const tagging = usePostingIntent("tag");
  const [form, fields] = useForm({
    id: TAG_FORM,
    lastResult: reply,
    ...liveChecks(BulkTagFormSchema),
    shouldValidate: "onSubmit",
  });
  // "Select all on this page" needs a script; without one it is not drawn.
  const scripted = useHydrated();
  // After the tag was put on (the action redirected: no reply), the tag and the ticks are cleared.
  const formRef = useRef<HTMLFormElement>(null);
  useResetAfterPost(tagging, reply, () => formRef.current?.reset());
  const tagErrorId = `${TAG_FORM}-tag-error`;
  return (
    <IntentForm
      form={form}
      intent="tag"
      formRef={formRef}
      preventScrollReset
      className="flex flex-col gap-2 border-b border-slate-100 px-4 py-3 text-sm sm:flex-row sm:flex-wrap sm:items-center"
    >
      <input type="hidden" name="back" value={back} />
      {scripted ? (
        <label className="flex items-center gap-2 text-slate-600 sm:mr-2">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            onChange={(event) => {
              const on = event.currentTarget.checked;
              for (const box of document.querySelectorAll<HTMLInputElement>(`input[form="${TAG_FORM}"][type=checkbox]`))
                box.checked = on;
            }}
          />
          Select all on this page
        </label>
      ) : null}
      <label htmlFor={fields.tag.id} className="text-slate-600">
        Tag selected customers with
      </label>
      <div className="flex gap-2">
        <input
          className="input min-w-0 flex-1 sm:w-56 sm:flex-none"
          {...getInputProps(fields.tag, { type: "text" })}
          autoComplete="off"
          placeholder="VIP"
          aria-invalid={fields.tag.errors ? true : undefined}
          aria-describedby={fields.tag.errors ? tagErrorId : undefined}
        />
        <SubmitButton className="btn-secondary shrink-0" busy={tagging} busyLabel="Tagging..." icon={Tag}>
          Tag selected
        </SubmitButton>
      </div>
      <ErrorList id={tagErrorId} errors={fields.tag.errors} className="field-error mt-0 sm:basis-full" />
      <ErrorList errors={fields.customerIds.errors} className="field-error mt-0 sm:basis-full" />
    </IntentForm>
  );
}

type CustomerItem = ReturnType<typeof useLoaderData<typeof loader>>["page"]["customers"][number];

/** A customer's row: a card on a phone (ResponsiveTable), its name first and its actions on the right. */
function CustomerRow({ customer: c, deleteHref }: { customer: CustomerItem; deleteHref: string }) {
  const name = customerDisplayName(c);
  return (
    <tr className="hover:bg-slate-50" data-testid="customer-row">
      <td className="px-4 py-3">
        <div className="flex items-center gap-3">
          {/* Ticked for "Tag selected" (its form is above the table). */}
          <input
            type="checkbox"
            form={TAG_FORM}
            name="customerIds"
            value={c.id}
            className="h-4 w-4 shrink-0 rounded border-slate-300"
            aria-label={`Select ${name}`}
          />
          <a href={`/customers/${c.id}`} className="flex min-w-0 items-center gap-3">
            <span
              className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary-light font-semibold text-primary"
              aria-hidden
            >
              {name.charAt(0).toUpperCase()}
            </span>
            <span className="min-w-0">
              <span className="block font-medium text-slate-900">{name}</span>
              {c.company ? <span className="block text-xs text-slate-500">{c.company}</span> : null}
            </span>
          </a>
        </div>
      </td>
      <td className="px-4 py-3">
        <span className="block text-slate-800">{c.email || "No Email"}</span>
        <span className="block text-xs text-slate-500">{c.phone || "N/A"}</span>
      </td>
      <CardCell
        label="Total Spend"
        className="whitespace-nowrap px-4 py-3 text-right font-medium tabular-nums text-slate-900"
      >
        {formatRupees(c.totalSpend)}
      </CardCell>
      <CardCell label="Visits" className="px-4 py-3 text-center">
        <span
          data-highlighted={isVisitsHighlighted(c.visits)}
          className={`inline-flex min-w-8 justify-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            isVisitsHighlighted(c.visits) ? "bg-primary text-white" : "bg-slate-100 text-slate-700"
          }`}
        >
          {formatCount(c.visits)}
        </span>
      </CardCell>
      <CardCell label="Last Active" className="whitespace-nowrap px-4 py-3 text-slate-600">
        {c.lastActive ? <DateTime value={c.lastActive} /> : "Never"}
      </CardCell>
      <RowActions
        className="px-4 py-3 text-right"
        actions={[
          { icon: "view", href: `/customers/${c.id}`, label: `View ${name}`, title: "View" },
          { icon: "delete", href: deleteHref, label: `Delete ${name}`, title: "Delete" },
        ]}
      />
    </tr>
  );
}
