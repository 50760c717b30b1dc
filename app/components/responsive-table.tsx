// Lists that fit a phone (docs/rules.md#phone-layouts): below the sm breakpoint a table rendered
// by ResponsiveTable is a stack of cards, one per row, with no sideways scroll at 390 px. It is
// the same markup at every width (no second copy of a row for phones, so ids, test ids and
// links stay unique); the .table-cards rules in app/tailwind.css restyle it:
//
//   - each row is a card: its cells stack in a left column, the actions cell stands on the right;
//   - a cell that starts with <CardLabel>Date</CardLabel> reads "Date: 23 Nov 2026" on a phone (the
//     header row is only for screen readers there); the first cell, without one, is the title;
//   - data-cell="actions" marks the cell of icon buttons (they wrap two to a row);
//   - data-cell="wide-only" drops a cell on a phone that repeats something the card already says.
//
// From sm up it is an ordinary full-width table; cells keep their own classes there.
import type { TableHTMLAttributes } from "react";

export function ResponsiveTable({ className = "", children, ...props }: TableHTMLAttributes<HTMLTableElement>) {
  return (
    <table className={`table-cards w-full text-left text-sm ${className}`} {...props}>
      {children}
    </table>
  );
}

/** A cell's column name, said inside the cell on a phone only: "Date: ". */
export function CardLabel({ children }: { children: string }) {
  return <span className="text-xs font-normal text-slate-500 sm:hidden">{children}: </span>;
}

/** Attributes of an actions cell. */
export const ACTIONS_CELL = { "data-cell": "actions" } as const;
/** Attributes of a cell shown from sm up only. */
export const WIDE_ONLY_CELL = { "data-cell": "wide-only" } as const;
