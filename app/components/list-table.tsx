// The parts every list's table is built of (customers, orders, suppressions, campaigns, segments, a
// segment's audience, users, a campaign's delivery log and its links), on ResponsiveTable
// (app/components/responsive-table.tsx), so a list says only its columns and its rows:
//
//   - ListTable: the table, its header row and its body (rows divided by a line);
//   - ColumnHeader and SortableColumnHeader: a column's name, the second a link that sorts by it,
//     with aria-sort on the column the list is sorted by;
//   - EmptyRow: the row a list shows when it has nothing (an icon, what is missing and why);
//   - CardCell: a cell that says its column's name on a phone ("Visits: 12").
import { Link } from "@remix-run/react";
import type { LucideIcon } from "lucide-react";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { MouseEventHandler, ReactNode, TdHTMLAttributes } from "react";
import { CardLabel, ResponsiveTable } from "~/components/responsive-table";

/** The header row of a list: small grey capitals on a grey band. */
const LIST_HEAD = "bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
/** The header row of a fixed-layout table (its header cells set their own weight and widths). */
const FIXED_HEAD = "bg-slate-50 text-xs uppercase tracking-wide text-slate-500";

/**
 * A list's table: `head` is its header cells, the children its rows. A fixed table (the campaign
 * lists) gives its columns widths in the header cells, which set their own weight too; a list's
 * table stretches to its card. `className` replaces the table's own classes ("table-fixed" for a
 * fixed one: a fixed head over a table that sizes its columns itself says `sm:min-w-[640px]`).
 * `caption` names the table for screen readers only. `onRowsClick` is the body's click handler
 * (useDelegatedLinks, app/components/fast-rows.tsx).
 */
export function ListTable({
  head,
  children,
  fixed = false,
  className,
  caption,
  onRowsClick,
  ...props
}: {
  head: ReactNode;
  children: ReactNode;
  fixed?: boolean;
  className?: string;
  caption?: string;
  onRowsClick?: MouseEventHandler<HTMLElement>;
  "data-testid"?: string;
}) {
  return (
    <ResponsiveTable
      className={className ?? (fixed ? "table-fixed" : "min-w-full divide-y divide-slate-200")}
      {...props}
    >
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className={fixed ? FIXED_HEAD : LIST_HEAD}>
        <tr>{head}</tr>
      </thead>
      <tbody className="divide-y divide-slate-100" onClick={onRowsClick}>
        {children}
      </tbody>
    </ResponsiveTable>
  );
}

/** A column's name; `sorted` when the list is sorted by this column. */
export function ColumnHeader({
  className = "px-4 py-3",
  sorted,
  children,
}: {
  className?: string;
  sorted?: "ascending" | "descending";
  children: ReactNode;
}) {
  return (
    <th scope="col" className={className} aria-sort={sorted}>
      {children}
    </th>
  );
}

/**
 * A column's name as a link that sorts the list by it (`href`: this column in its natural order,
 * or the other way when it is the current one), with an arrow: up or down on the current column,
 * a faint both-ways arrow on the others. Works without JavaScript (a plain link).
 */
export function SortableColumnHeader({
  label,
  title,
  href,
  order,
  className,
  align = "",
}: {
  label: string;
  /** The link's tooltip: "Sort by visits". */
  title: string;
  href: string;
  /** The list's order when it is sorted by this column, else null. */
  order: "asc" | "desc" | null;
  className: string;
  /** How the link sits in its cell: "justify-end" under a right-aligned column. */
  align?: string;
}) {
  const active = order !== null;
  const Icon = !active ? ArrowUpDown : order === "asc" ? ArrowUp : ArrowDown;
  return (
    <ColumnHeader className={className} sorted={active ? (order === "asc" ? "ascending" : "descending") : undefined}>
      <Link
        to={href}
        preventScrollReset
        className={`inline-flex items-center gap-1 rounded hover:text-slate-900 ${align} ${active ? "text-slate-900" : ""}`}
        title={title}
      >
        {label}
        <Icon className={`h-3.5 w-3.5 ${active ? "" : "opacity-40"}`} aria-hidden />
      </Link>
    </ColumnHeader>
  );
}

/**
 * The one row of a list with nothing to show: an icon, what is missing and, under it, why or what
 * to do (`children`). A quiet one (the order list) says only what is missing, in a lighter weight.
 */
export function EmptyRow({
  colSpan,
  icon: Icon,
  title,
  quiet = false,
  textClassName = "",
  children,
}: {
  colSpan: number;
  icon: LucideIcon;
  title: string;
  quiet?: boolean;
  /** Classes of the text under the title besides its size and colour ("mx-auto max-w-xl"). */
  textClassName?: string;
  children?: ReactNode;
}) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-14 text-center">
        {quiet ? (
          <>
            <Icon className="mx-auto mb-2 h-8 w-8 text-slate-300" aria-hidden />
            <p className="font-medium text-slate-700">{title}</p>
          </>
        ) : (
          <>
            <Icon className="mx-auto h-8 w-8 text-slate-300" aria-hidden />
            <p className="mt-2 font-semibold text-slate-800">{title}</p>
          </>
        )}
        {children ? (
          <p className={`${textClassName ? `${textClassName} ` : ""}text-sm text-slate-500`}>{children}</p>
        ) : null}
      </td>
    </tr>
  );
}

/** A cell that starts with its column's name on a phone ("Visits: 12"); from sm up, just the value. */
export function CardCell({
  label,
  children,
  ...props
}: { label: string; children: ReactNode } & TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td {...props}>
      <CardLabel>{label}</CardLabel>
      {children}
    </td>
  );
}
