// A list's footer (the one /customers draws): where the user is ("1–50 of 2,000") and the First,
// Previous, Next and Last links, greyed out where there is nowhere to go; and the shorter one of a
// list paged by cursor that knows no last page (PrevNextPager: the campaigns and a campaign's
// delivery log). Plain links, so paging works without JavaScript.
import { Link } from "@remix-run/react";
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import type { ReactNode } from "react";

export type PagerLinks = { first: string | null; prev: string | null; next: string | null; last: string | null };

export function Pager({ summary, links }: { summary: string; links: PagerLinks }) {
  return (
    <nav
      aria-label="Pages"
      className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-4 py-3 text-sm"
    >
      <p className="text-slate-600" data-testid="page-summary">
        {summary}
      </p>
      <div className="flex flex-wrap gap-1 sm:gap-2">
        <PageLink to={links.first} label="First page" rel="first">
          <ChevronsLeft className="h-4 w-4" aria-hidden />
          <span className="hidden sm:inline">First</span>
        </PageLink>
        <PageLink to={links.prev} label="Previous page" rel="prev">
          <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
        </PageLink>
        <PageLink to={links.next} label="Next page" rel="next">
          Next <ChevronRight className="h-4 w-4" aria-hidden />
        </PageLink>
        <PageLink to={links.last} label="Last page" rel="last">
          <span className="hidden sm:inline">Last</span>
          <ChevronsRight className="h-4 w-4" aria-hidden />
        </PageLink>
      </div>
    </nav>
  );
}

/**
 * A pager button: a link, or the same shape greyed out when there is nowhere to go. `label` names
 * it for a screen reader where its text alone is short ("First page").
 */
export function PageLink({
  to,
  label,
  rel,
  children,
}: {
  to: string | null;
  label?: string;
  rel: string;
  children: ReactNode;
}) {
  if (!to)
    return (
      <span className="btn-secondary pointer-events-none opacity-50" aria-disabled="true" aria-label={label}>
        {children}
      </span>
    );
  return (
    <Link to={to} className="btn-secondary" rel={rel} aria-label={label}>
      {children}
    </Link>
  );
}

/**
 * Previous and Next of a list paged by cursor, on the right under it; a link only where there is a
 * page to go to, and no footer at all on a list of one page. `preventScrollReset` keeps the
 * scroll position (a list under other content, like a campaign's delivery log under its tabs).
 */
export function PrevNextPager({
  label = "Pages",
  prev,
  next,
  preventScrollReset,
}: {
  label?: string;
  prev: string | null;
  next: string | null;
  preventScrollReset?: boolean;
}) {
  if (!prev && !next) return null;
  return (
    <nav aria-label={label} className="flex justify-end gap-2 border-t border-slate-200 px-4 py-3 text-sm">
      {prev ? (
        <Link to={prev} className="btn-secondary" rel="prev" preventScrollReset={preventScrollReset}>
          <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
        </Link>
      ) : null}
      {next ? (
        <Link to={next} className="btn-secondary" rel="next" preventScrollReset={preventScrollReset}>
          Next <ChevronRight className="h-4 w-4" aria-hidden />
        </Link>
      ) : null}
    </nav>
  );
}
