// The top of a list page: its title and what it says under it (`children`: a line or two), and on the
// right what the page offers (`actions`: Create, Import CSV, Export CSV…). They wrap under each other
// on a narrow screen.
import type { ReactNode } from "react";

export function PageHeader({
  title,
  titleClassName,
  actions,
  children,
}: {
  title: string;
  /** Classes of the block of the title and its lines ("min-w-0" lets a long line wrap). */
  titleClassName?: string;
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className={titleClassName}>
        <h2 className="text-2xl font-bold text-slate-900">{title}</h2>
        {children}
      </div>
      {actions}
    </div>
  );
}
