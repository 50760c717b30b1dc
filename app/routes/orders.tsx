// /orders: the order list, searchable by customer name or order id, paged on the server, with a
// confirmed delete.
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { pageSearchTerm } from "~/schemas/search";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { ChevronLeft, ChevronRight, Search, ShoppingCart } from "lucide-react";
import { useEffect, useRef } from "react";
import { z } from "zod";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { CreateLink } from "~/components/create-link";
import { DateTime } from "~/components/date-time";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { useDelegatedLinks } from "~/components/fast-rows";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { OrderAmount } from "~/components/order-amount";
import { OrderStatusChip } from "~/components/order-status-chip";
import { CardCell, ColumnHeader, EmptyRow, ListTable } from "~/components/list-table";
import { PageLink } from "~/components/pager";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import { isId } from "~/lib/id";
import { customerName, shortOrderId } from "~/lib/orders";
import { orRespond, refusedWith } from "~/lib/responses";
import { requireUser } from "~/services/auth.server";
import { deleteOrder, listOrders } from "~/services/orders.server";
import { redirectWithFlash } from "~/services/session.server";
import { withSearchParams } from "~/lib/search-params";
import { logger } from "~/lib/logger.server";
import { PageHeader } from "~/components/page-header";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Orders · ${BRAND}` }];

const PAGE_SIZE = 50;
const LOAD_FAILED = "Failed to load order data. Please try again.";
const DELETE_FAILED = "Failed to delete order. Please try again.";
/** What the delete dialog's form sends. */
const DeleteSchema = z.object({ intent: z.literal("delete"), id: z.string().trim().min(1) });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const q = (pageSearchTerm(url.searchParams) ?? "").trim().slice(0, 200);
  const cursor = url.searchParams.get("cursor") ?? undefined;
  const before = url.searchParams.get("before") ?? undefined;
  const page = await listOrders(user.id, {
    q,
    limit: PAGE_SIZE,
    cursor: cursor && isId(cursor) ? cursor : undefined,
    before: !cursor && before && isId(before) ? before : undefined,
  });
  return { q, page };
}

/** Where to go after an action: the list as it was, without the dialog's parameter. */
function listAddress(request: Request) {
  const url = new URL(request.url);
  const next = new URLSearchParams();
  for (const key of ["q", "cursor", "before"]) {
    const v = url.searchParams.get(key);
    if (v) next.set(key, v);
  }
  const s = next.toString();
  return s ? `/orders?${s}` : "/orders";
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: DeleteSchema });
  const back = listAddress(request);
  if (submission.status !== "success") {
    return redirectWithFlash(request, back, { kind: "toast", type: "error", message: DELETE_FAILED });
  }
  try {
    // An order that is gone (deleted already, or another user's) is a 404 with its message.
    await orRespond(deleteOrder(user.id, submission.value.id), refusedWith("Delete failed"));
  } catch (error) {
    // That 404 (a thrown response, not an Error) goes on to the error boundary.
    if (!(error instanceof Error)) throw error;
    logger().error({ err: error }, "Deleting an order failed");
    return redirectWithFlash(request, back, { kind: "toast", type: "error", message: DELETE_FAILED });
  }
  return redirectWithFlash(request, back, { kind: "toast", type: "success", message: "Order deleted successfully" });
}

export default function Orders() {
  const { q, page } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const submit = useSubmit();
  const navigation = useNavigation();
  const onRowsClick = useDelegatedLinks();
  const searchRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (searchRef.current && document.activeElement !== searchRef.current) searchRef.current.value = q;
  }, [q]);

  const href = (changes: Record<string, string | null>) => withSearchParams(params, changes, "/orders");
  const deleting = params.get("delete");
  const deletingOrder = page.orders.find((o) => o._id === deleting);
  const end = page.start ? page.start + page.orders.length - 1 : 0;
  const searching = navigation.state === "loading" && navigation.location.pathname === "/orders";

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <PageHeader title="Orders" actions={<CreateLink to="/orders/new">Create Order</CreateLink>}>
        <p className="text-slate-600">Track and manage your customers&apos; orders</p>
      </PageHeader>

      <RowActionSprite />
      <section className="card">
        <Form method="get" role="search" className="flex gap-2 border-b border-slate-100 p-4">
          <label htmlFor="order-search" className="sr-only">
            Search orders
          </label>
          <div className="relative flex-1">
            <Search
              className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
              aria-hidden="true"
            />
            <input
              ref={searchRef}
              id="order-search"
              type="search"
              name="q"
              defaultValue={q}
              placeholder="Search by customer name or order ID"
              className="input pl-9"
              onChange={(e) => {
                const form = e.currentTarget.form;
                clearTimeout(timer.current);
                timer.current = setTimeout(() => submit(form, { replace: true }), 300);
              }}
            />
          </div>
          <button type="submit" className="btn-secondary">
            Search
          </button>
        </Form>

        <div className={`overflow-x-auto ${searching ? "opacity-60" : ""}`}>
          <ListTable
            className=""
            onRowsClick={onRowsClick}
            head={
              <>
                <ColumnHeader>Order ID</ColumnHeader>
                <ColumnHeader>Customer</ColumnHeader>
                <ColumnHeader className="px-4 py-3 text-right">
                  Amount <span className="font-normal normal-case">(total with tax)</span>
                </ColumnHeader>
                <ColumnHeader>Status</ColumnHeader>
                <ColumnHeader className="hidden px-4 py-3 sm:table-cell">Date</ColumnHeader>
                <ColumnHeader className="px-4 py-3 text-right">Actions</ColumnHeader>
              </>
            }
          >
            {page.orders.length === 0 ? (
              <EmptyRow colSpan={6} icon={ShoppingCart} title="No orders found" quiet />
            ) : (
              page.orders.map((o) => <OrderRow key={o._id} order={o} deleteHref={href({ delete: o._id })} />)
            )}
          </ListTable>
        </div>

        <nav
          aria-label="Pages"
          className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600"
        >
          <p data-testid="order-range">
            {page.total === 0
              ? "0 orders"
              : `Showing ${formatCount(page.start)}–${formatCount(end)} of ${formatCount(page.total)} ${page.total === 1 ? "order" : "orders"}`}
          </p>
          <div className="flex gap-2">
            <PageLink
              to={page.prevCursor ? href({ before: page.prevCursor, cursor: null, delete: null }) : null}
              rel="prev"
            >
              <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
            </PageLink>
            <PageLink
              to={page.nextCursor ? href({ cursor: page.nextCursor, before: null, delete: null }) : null}
              rel="next"
            >
              Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
            </PageLink>
          </div>
        </nav>
      </section>

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete Order"
        message={
          <>
            Are you sure you want to delete order <strong className="font-mono">#{shortOrderId(deleting ?? "")}</strong>
            {deletingOrder ? <> for {customerName(deletingOrder.customer)}</> : null}? This action cannot be undone.
          </>
        }
        cancelHref={href({ delete: null })}
        action={href({ delete: null })}
        fields={{ intent: "delete", id: deleting ?? "" }}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/dashboard" fallback={LOAD_FAILED} />;
}

type OrderItem = ReturnType<typeof useLoaderData<typeof loader>>["page"]["orders"][number];

/** An order's row: a card on a phone (ResponsiveTable), its number first and its actions on the right. */
function OrderRow({ order: o, deleteHref }: { order: OrderItem; deleteHref: string }) {
  const short = shortOrderId(o._id);
  return (
    <tr data-testid="order-row" className="hover:bg-slate-50">
      <td className="px-4 py-3 font-mono">
        <a href={`/orders/${o._id}`} className="font-medium text-primary hover:underline" title={o._id}>
          #{short}
        </a>
      </td>
      <td className="px-4 py-3">
        <div className="font-medium text-slate-900">{customerName(o.customer)}</div>
        <div className="hidden text-xs text-slate-500 md:block">{o.customer?.email || "No Email"}</div>
      </td>
      <CardCell label="Amount (total with tax)" className="px-4 py-3 text-right tabular-nums">
        <OrderAmount total={o.total} tax={o.tax} testId="order-amount" />
      </CardCell>
      <td className="px-4 py-3">
        <OrderStatusChip status={o.status} />
      </td>
      <CardCell label="Date" className="hidden whitespace-nowrap px-4 py-3 text-slate-600 sm:table-cell">
        <DateTime value={o.createdAt} />
      </CardCell>
      <RowActions
        actions={[
          { icon: "view", href: `/orders/${o._id}`, label: `View order ${short}`, title: "View" },
          { icon: "edit", href: `/orders/edit/${o._id}`, label: `Edit order ${short}`, title: "Edit" },
          { icon: "delete", href: deleteHref, label: `Delete order ${short}`, title: "Delete" },
        ]}
      />
    </tr>
  );
}
