// The Delivery Logs tab of a campaign's page (app/routes/campaigns-detail.tsx): a page of the
// campaign's delivery log, read on the server, filtered by status (a GET form, so it works without
// JavaScript), with Previous and Next. On a phone each row is a card (ResponsiveTable); between sm
// and lg the columns that do not fit are said under the customer and the status.
import { Form, useSubmit } from "@remix-run/react";
import { Inbox } from "lucide-react";
import { DeliveryStatusChip } from "~/components/campaign-chips";
import { DateTime } from "~/components/date-time";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { PrevNextPager } from "~/components/pager";
import { DELIVERY_STATUSES, deliveryChip, type DeliveryLogStatus } from "~/lib/campaigns";
import { formatCount } from "~/lib/numbers";
import type { DeliveryLogDto } from "~/services/campaigns/delivery-log.server";

/**
 * The log's filters: "Pending" is every row not yet sent, "Deferred" those waiting for a retry (next
 * to it), then the other stored statuses in their order.
 */
const LOG_FILTER_ORDER: readonly DeliveryLogStatus[] = [
  "pending",
  "deferred",
  ...DELIVERY_STATUSES.filter((s) => s !== "pending"),
];
const STATUS_FILTERS: readonly { value: DeliveryLogStatus | ""; label: string }[] = [
  { value: "", label: "All" },
  ...LOG_FILTER_ORDER.map((s) => ({ value: s, label: deliveryChip(s).label })),
];

/** The tab: the filter, where the page stands in the log, its rows and the way to the others. */
export function DeliveryLogTab({
  status,
  logs,
  start,
  prevHref,
  nextHref,
}: {
  status: DeliveryLogStatus | null;
  logs: { logs: DeliveryLogDto[]; total: number } | null;
  /** The position of the page's first row in the log (1 on the first page). */
  start: number;
  prevHref: string | null;
  nextHref: string | null;
}) {
  const submit = useSubmit();
  return (
    <div role="tabpanel" aria-label="Delivery Logs" className="card overflow-hidden">
      <Form
        method="get"
        className="flex flex-wrap items-center gap-2 border-b border-slate-100 p-4"
        replace
        preventScrollReset
      >
        <input type="hidden" name="tab" value="logs" />
        <label htmlFor="log-status" className="text-sm text-slate-600">
          Filter by status
        </label>
        <select
          id="log-status"
          name="status"
          defaultValue={status ?? ""}
          key={status ?? ""}
          className="input w-auto"
          onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
        >
          {STATUS_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
        <noscript>
          <button type="submit" className="btn-secondary">
            Apply
          </button>
        </noscript>
        {logs ? (
          <p className="ml-auto text-sm text-slate-500" data-testid="log-summary">
            {logs.logs.length === 0
              ? `0 of ${formatCount(logs.total)}`
              : `${formatCount(start)}–${formatCount(start + logs.logs.length - 1)} of ${formatCount(logs.total)}`}
          </p>
        ) : null}
      </Form>
      {!logs || logs.logs.length === 0 ? (
        <div className="px-6 py-12 text-center">
          <Inbox className="mx-auto h-10 w-10 text-slate-300" aria-hidden="true" />
          <p className="mt-3 font-semibold text-slate-800">No delivery logs available for this campaign</p>
          <p className="mx-auto mt-1 max-w-md text-sm text-slate-500">
            Each campaign keeps its own isolated delivery records, even for customers who appear in several campaigns.
          </p>
        </div>
      ) : (
        <ListTable
          fixed
          head={
            <>
              <ColumnHeader className="px-3 py-3 font-medium sm:px-4">Customer</ColumnHeader>
              <ColumnHeader className="hidden px-4 py-3 font-medium md:table-cell">Contact</ColumnHeader>
              <ColumnHeader className="w-32 px-4 py-3 font-medium">Status</ColumnHeader>
              <ColumnHeader className="hidden w-44 px-4 py-3 font-medium md:table-cell">Timestamp</ColumnHeader>
              <ColumnHeader className="hidden px-4 py-3 font-medium lg:table-cell">Details</ColumnHeader>
            </>
          }
        >
          {logs.logs.map((log) => (
            <LogRow key={log.id} log={log} />
          ))}
        </ListTable>
      )}
      <PrevNextPager label="Log pages" prev={prevHref} next={nextHref} preventScrollReset />
    </div>
  );
}

/**
 * A row of the log. A phone shows every cell in the row's card, each with its label; between sm
 * and lg the columns that do not fit are said under the customer and the status.
 */
function LogRow({ log }: { log: DeliveryLogDto }) {
  const customerName = log.customer.name || "Unknown Customer";
  const contact = log.customer.email || log.customer.phone || "N/A";
  const timestamp = log.timestamp ? <DateTime value={log.timestamp} format="dateTime" /> : "N/A";
  const details = log.details ? (
    <span className="break-words">{log.details}</span>
  ) : (
    <span className="text-slate-400" title="No details available">
      No details
    </span>
  );
  return (
    <tr data-testid="log-row" className="align-top">
      <td className="px-3 py-3 sm:px-4">
        <p className="truncate font-medium text-slate-900" data-testid="log-customer">
          {customerName}
        </p>
        <p className="font-mono text-xs text-slate-500" data-testid="log-customer-id">
          {log.customer.id ? log.customer.id.slice(0, 8) : "N/A"}
        </p>
        <div className="mt-1 hidden space-y-0.5 text-xs text-slate-600 sm:block lg:hidden">
          <p className="truncate md:hidden">{contact}</p>
          <p>{details}</p>
        </div>
      </td>
      <CardCell label="Contact" className="hidden truncate px-4 py-3 text-slate-700 md:table-cell">
        <span data-testid="log-contact">{contact}</span>
      </CardCell>
      <CardCell label="Status" className="px-4 py-3">
        <DeliveryStatusChip status={log.status} />
        <p className="mt-1 hidden text-xs text-slate-500 sm:block md:hidden">{timestamp}</p>
      </CardCell>
      <CardCell label="Timestamp" className="hidden px-4 py-3 text-slate-600 md:table-cell">
        <span data-testid="log-timestamp">{timestamp}</span>
      </CardCell>
      <CardCell label="Details" className="hidden px-4 py-3 text-slate-600 lg:table-cell">
        <span data-testid="log-details">{details}</span>
      </CardCell>
    </tr>
  );
}
