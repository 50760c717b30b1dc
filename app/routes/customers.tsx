// /customers: search on name or e-mail, the six columns, the Visits chip highlighted
// above 5, view and delete (with a confirmation that says the customer's orders go too), Add
// Customer, Import CSV and Export CSV. Pages are read on the server 50 at a time with a keyset
// cursor; the footer says where the user is and how many there are.
import { pageSearchTerm } from "~/schemas/search";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { ChevronLeft, ChevronRight, Download, Eye, Plus, Search, Trash2, Upload, Users } from "lucide-react";
import { useEffect, useRef } from "react";
import { z } from "zod";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { IconSprite, SpriteIcon, useDelegatedLinks } from "~/components/fast-rows";
import { ApiError } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { customerDisplayName, isVisitsHighlighted, pageSummary } from "~/lib/customers";
import { DateTime } from "~/components/date-time";
import { formatRupees } from "~/lib/money";
import { requireUser } from "~/services/auth.server";
import {
  customerOrderCount,
  deleteCustomer,
  getCustomer,
  listCustomers,
  normaliseQuery,
} from "~/services/customers.server";
import { redirectWithFlash } from "~/services/session.server";
import { withSearchParams } from "~/lib/search-params";

const PAGE_SIZE = 50;
const ROW_ICONS = { view: Eye, delete: Trash2 };

export const meta: MetaFunction = () => [{ title: `Customers · ${BRAND}` }];

const CURSOR = /^\d{1,15}$/;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const q = normaliseQuery(pageSearchTerm(params));
  const cursorParam = params.get("cursor");
  const cursor = cursorParam && CURSOR.test(cursorParam) ? cursorParam : null;
  // The cursors of the pages before this one, so Previous works without keeping state.
  const trail = cursor
    ? (params.get("trail") ?? "")
        .split(",")
        .filter((c) => CURSOR.test(c))
        .slice(-1000)
    : [];
  const deleteId = params.get("delete");
  const [page, deleting] = await Promise.all([
    listCustomers(user.id, { q, limit: PAGE_SIZE, cursor }),
    deleteId ? deletionTarget(user.id, deleteId) : null,
  ]);
  const start = cursor ? (trail.length + 1) * PAGE_SIZE + 1 : 1;
  return { page, q, cursor, trail, start, deleting };
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

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: DeleteSchema });
  if (submission.status !== "success") {
    return redirectWithFlash(request, "/customers", {
      kind: "toast",
      type: "error",
      message: "Failed to delete customer. Please try again.",
    });
  }
  const { id, back: asked } = submission.value;
  const back = asked?.startsWith("/customers") ? asked : "/customers";
  try {
    await deleteCustomer(user.id, id);
  } catch (error) {
    // A refusal (the customer is gone, or another user's) is told in a toast; anything else is a
    // fault for the error boundary and the server log.
    if (!(error instanceof ApiError)) throw error;
    return redirectWithFlash(request, back, {
      kind: "toast",
      type: "error",
      message: `Delete failed: ${error.message}`,
    });
  }
  return redirectWithFlash(request, back, { kind: "toast", type: "success", message: "Customer deleted successfully" });
}

export default function Customers() {
  const { page, q, cursor, trail, start, deleting } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const submit = useSubmit();
  const navigation = useNavigation();
  const onRowsClick = useDelegatedLinks();
  const searchForm = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/customers";

  const href = (changes: Record<string, string | null>) => withSearchParams(params, changes, "/customers");
  const listHref = href({ delete: null });
  const nextHref = page.nextCursor
    ? href({ cursor: page.nextCursor, trail: cursor ? [...trail, cursor].join(",") : null, delete: null })
    : null;
  const prevHref = cursor
    ? trail.length > 0
      ? href({ cursor: trail[trail.length - 1], trail: trail.slice(0, -1).join(",") || null, delete: null })
      : href({ cursor: null, trail: null, delete: null })
    : null;
  const summary = pageSummary(start, page.customers.length, page.total, page.totalCapped);
  const exportHref = q ? `/customers/export?q=${encodeURIComponent(q)}` : "/customers/export";

  return (
    <div className="mx-auto max-w-7xl space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold text-slate-900">Customers</h2>
          <p className="text-slate-600">
            {page.totalCapped ? `${page.total.toLocaleString("en-IN")}+` : page.total.toLocaleString("en-IN")}{" "}
            {q ? `matching “${q}”` : page.total === 1 ? "customer" : "customers"}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/customers/import" className="btn-secondary">
            <Upload className="h-4 w-4" aria-hidden /> Import CSV
          </Link>
          <a href={exportHref} download className="btn-secondary">
            <Download className="h-4 w-4" aria-hidden /> Export CSV
          </a>
          <Link to="/customers/new" className="btn-primary">
            <Plus className="h-4 w-4" aria-hidden /> Add Customer
          </Link>
        </div>
      </div>

      <Form ref={searchForm} method="get" role="search" className="card flex items-center gap-2 p-3">
        <label htmlFor="customer-search" className="sr-only">
          Search customers
        </label>
        <Search className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
        <input
          id="customer-search"
          name="q"
          type="search"
          defaultValue={q}
          key={q}
          placeholder="Search by name or email"
          className="w-full border-0 bg-transparent text-sm focus:outline-none focus:ring-0"
          onChange={(event) => {
            const form = event.currentTarget.form;
            clearTimeout(timer.current);
            timer.current = setTimeout(() => {
              if (form) submit(form, { replace: true, preventScrollReset: true });
            }, 250);
          }}
        />
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </Form>

      <IconSprite icons={ROW_ICONS} />
      <section className="card overflow-hidden" aria-label="Customer list" aria-busy={searching}>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Customer
                </th>
                <th scope="col" className="px-4 py-3">
                  Contact
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Total Spend
                </th>
                <th scope="col" className="px-4 py-3 text-center">
                  Visits
                </th>
                <th scope="col" className="px-4 py-3">
                  Last Active
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" onClick={onRowsClick}>
              {page.customers.length === 0 ? (
                <tr>
                  <td colSpan={6} className="px-4 py-14 text-center">
                    <Users className="mx-auto h-8 w-8 text-slate-300" aria-hidden />
                    <p className="mt-2 font-semibold text-slate-800">No customers found</p>
                    <p className="text-sm text-slate-500">
                      {q
                        ? `No customer's name or email contains “${q}”.`
                        : "Add your first customer or import a CSV file."}
                    </p>
                  </td>
                </tr>
              ) : (
                page.customers.map((c) => {
                  const name = customerDisplayName(c);
                  return (
                    <tr key={c.id} className="hover:bg-slate-50" data-testid="customer-row">
                      <td className="px-4 py-3">
                        <a href={`/customers/${c.id}`} className="flex items-center gap-3">
                          <span
                            className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary-light font-semibold text-primary"
                            aria-hidden
                          >
                            {name.charAt(0).toUpperCase()}
                          </span>
                          <span>
                            <span className="block font-medium text-slate-900">{name}</span>
                            {c.company ? <span className="block text-xs text-slate-500">{c.company}</span> : null}
                          </span>
                        </a>
                      </td>
                      <td className="px-4 py-3">
                        <span className="block text-slate-800">{c.email || "No Email"}</span>
                        <span className="block text-xs text-slate-500">{c.phone || "N/A"}</span>
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-right font-medium tabular-nums text-slate-900">
                        {formatRupees(c.totalSpend)}
                      </td>
                      <td className="px-4 py-3 text-center">
                        <span
                          data-highlighted={isVisitsHighlighted(c.visits)}
                          className={`inline-flex min-w-8 justify-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                            isVisitsHighlighted(c.visits) ? "bg-primary text-white" : "bg-slate-100 text-slate-700"
                          }`}
                        >
                          {c.visits}
                        </span>
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                        {c.lastActive ? <DateTime value={c.lastActive} /> : "Never"}
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-right">
                        <a href={`/customers/${c.id}`} className="btn-ghost" aria-label={`View ${name}`} title="View">
                          <SpriteIcon id="view" />
                        </a>
                        <a
                          href={href({ delete: c.id })}
                          data-prevent-scroll-reset
                          className="btn-ghost text-red-600 hover:bg-red-50"
                          aria-label={`Delete ${name}`}
                          title="Delete"
                        >
                          <SpriteIcon id="delete" />
                        </a>
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
        <nav
          aria-label="Pages"
          className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-4 py-3 text-sm"
        >
          <p className="text-slate-600" data-testid="page-summary">
            {summary}
          </p>
          <div className="flex gap-2">
            {prevHref ? (
              <Link to={prevHref} className="btn-secondary" rel="prev">
                <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
              </Link>
            ) : (
              <span className="btn-secondary pointer-events-none opacity-50" aria-disabled="true">
                <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
              </span>
            )}
            {nextHref ? (
              <Link to={nextHref} className="btn-secondary" rel="next">
                Next <ChevronRight className="h-4 w-4" aria-hidden />
              </Link>
            ) : (
              <span className="btn-secondary pointer-events-none opacity-50" aria-disabled="true">
                Next <ChevronRight className="h-4 w-4" aria-hidden />
              </span>
            )}
          </div>
        </nav>
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
