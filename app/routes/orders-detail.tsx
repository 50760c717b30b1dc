// /orders/{id}: the order summary with its status, date and time, the customer, the subtotal, tax
// and total, and the items. An order that is not there (or not the user's) is the error boundary's.
import type { LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft, Mail, Pencil, Phone, User } from "lucide-react";
import { methodNotAllowed, keepAllowHeader } from "~/lib/api.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { AmountRow } from "~/components/order-amount";
import { OrderStatusChip } from "~/components/order-status-chip";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import { DateTime } from "~/components/date-time";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { orRespond } from "~/lib/responses";
import { formatRupees } from "~/lib/money";
import { customerName, shortOrderId } from "~/lib/orders";
import { requireUser } from "~/services/auth.server";
import { getOrder } from "~/services/orders.server";
import { TitledCard } from "~/components/titled-card";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.order ? `Order #${shortOrderId(d.order._id)} · ${BRAND}` : `Order · ${BRAND}` },
];

const LOAD_FAILED = "Failed to load order data. Please try again.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { order: await orRespond(getOrder(user.id, params.id ?? ""), LOAD_FAILED) };
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");

export default function OrderDetail() {
  const { order } = useLoaderData<typeof loader>();
  const c = order.customer;
  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/orders" className="btn-secondary">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Orders
        </Link>
        <Link to={`/orders/edit/${order._id}`} className="btn-primary">
          <Pencil className="h-4 w-4" aria-hidden="true" /> Edit Order
        </Link>
      </div>

      <div className="grid gap-4 lg:grid-cols-3">
        <section className="card p-6 lg:col-span-2" aria-labelledby="order-summary">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <p className="text-sm text-slate-500">Order Summary</p>
              <h2 id="order-summary" className="font-mono text-2xl font-bold text-slate-900" title={order._id}>
                Order #{shortOrderId(order._id)}
              </h2>
              <p className="mt-1 text-sm text-slate-600">
                <DateTime value={order.createdAt} format="dateTime" testId="order-date" />
              </p>
            </div>
            <OrderStatusChip status={order.status} />
          </div>
          {order.notes ? (
            <div className="mt-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
              <p className="mb-1 font-medium text-slate-800">Notes</p>
              <p className="whitespace-pre-line">{order.notes}</p>
            </div>
          ) : null}
          <dl className="mt-6 space-y-2 border-t border-slate-100 pt-4 text-sm">
            <AmountRow label="Subtotal" testId="order-subtotal">
              {formatRupees(order.amount)}
            </AmountRow>
            <AmountRow label="Tax" testId="order-tax">
              {formatRupees(order.tax)}
            </AmountRow>
            <AmountRow label="Total" testId="order-total" total>
              {formatRupees(order.total)}
            </AmountRow>
          </dl>
        </section>

        <TitledCard headingId="order-customer" title="Customer" headingClassName="mb-3 font-semibold text-slate-900">
          {c ? (
            <div className="space-y-2 text-sm">
              <Link
                to={`/customers/${c._id}`}
                className="flex items-center gap-2 font-medium text-primary hover:underline"
              >
                <User className="h-4 w-4" aria-hidden="true" /> {customerName(c)}
              </Link>
              <p className="flex items-center gap-2 break-all text-slate-600">
                <Mail className="h-4 w-4 shrink-0" aria-hidden="true" /> {c.email || "No Email"}
              </p>
              <p className="flex items-center gap-2 text-slate-600">
                <Phone className="h-4 w-4 shrink-0" aria-hidden="true" /> {c.phone || "N/A"}
              </p>
            </div>
          ) : (
            <p className="text-sm text-slate-500">Unknown Customer</p>
          )}
        </TitledCard>
      </div>

      <TitledCard
        headingId="order-items"
        title="Items"
        className="card"
        headingClassName="border-b border-slate-100 px-6 py-4 font-semibold text-slate-900"
      >
        <div className="overflow-x-auto">
          <ListTable
            className=""
            head={
              <>
                <ColumnHeader className="px-6 py-3">Item</ColumnHeader>
                {ITEM_FIGURES.map(({ label }) => (
                  <ColumnHeader key={label} className="px-6 py-3 text-right">
                    {label}
                  </ColumnHeader>
                ))}
              </>
            }
          >
            {order.items.map((item, i) => (
              <tr key={i} data-testid="order-item">
                <td className="px-6 py-3">
                  <div className="font-medium text-slate-900">{item.name}</div>
                  {item.description ? <div className="text-xs text-slate-500">{item.description}</div> : null}
                </td>
                {ITEM_FIGURES.map(({ label, figure }) => (
                  <CardCell key={label} label={label} className="px-6 py-3 text-right tabular-nums">
                    {figure(item)}
                  </CardCell>
                ))}
              </tr>
            ))}
          </ListTable>
        </div>
      </TitledCard>
    </div>
  );
}

type OrderItem = SerializeFrom<typeof loader>["order"]["items"][number];

/** The item table's columns after the item's name, each a figure. */
const ITEM_FIGURES: { label: string; figure: (item: OrderItem) => string }[] = [
  { label: "Quantity", figure: (item) => formatCount(item.quantity) },
  { label: "Unit Price", figure: (item) => formatRupees(item.price) },
  { label: "Total", figure: (item) => formatRupees(item.total) },
];

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/orders" fallback={LOAD_FAILED} />;
}
