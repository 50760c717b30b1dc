// The customer page's E-mail history card: the customer's story (app/services/customer-story.server.ts),
// newest first, each entry a sentence with its campaign linked, a line of detail and its date in
// the viewer's zone. "Show older" is a plain link to the page after the last entry
// (?story=CURSOR), so paging works without JavaScript; with it, the older entries are fetched and
// added below the ones shown.
import { Link, useFetcher } from "@remix-run/react";
import {
  Ban,
  Bot,
  ChevronDown,
  Clock,
  History,
  Hourglass,
  Inbox,
  MailCheck,
  MailMinus,
  MailWarning,
  MailX,
  MousePointerClick,
  ShieldAlert,
  BellOff,
  Eye,
  XCircle,
  type LucideIcon,
} from "lucide-react";
import { useEffect, useState, type MouseEvent } from "react";
import { DateTime } from "~/components/date-time";
import {
  STORY_EMPTY,
  STORY_EMPTY_DETAIL,
  storyParts,
  storyTone,
  type StoryEntry,
  type StoryKind,
  type StoryTone,
} from "~/lib/customer-story";

/** The query parameter of an older page. */
export const STORY_PARAM = "story";

export type StoryPage = { entries: StoryEntry[]; nextCursor: string | null };

const ICONS: Record<StoryKind, LucideIcon> = {
  received: Inbox,
  waiting: Clock,
  deferred: Hourglass,
  failed: XCircle,
  "not-sent": Ban,
  bounced: MailX,
  opened: Eye,
  "machine-opened": Bot,
  clicked: MousePointerClick,
  "soft-bounced": MailWarning,
  complained: ShieldAlert,
  unsubscribed: BellOff,
  resubscribed: MailCheck,
  suppressed: MailMinus,
};

const TONES: Record<StoryTone, string> = {
  good: "bg-emerald-50 text-emerald-700",
  bad: "bg-red-50 text-red-700",
  list: "bg-amber-50 text-amber-700",
  quiet: "bg-slate-100 text-slate-500",
};

function StoryItem({ entry }: { entry: StoryEntry }) {
  const Icon = ICONS[entry.kind];
  const parts = storyParts(entry);
  return (
    <li className="flex gap-3 px-4 py-3 sm:px-6" data-kind={entry.kind}>
      <span
        className={`mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-full ${TONES[storyTone(entry.kind)]}`}
        aria-hidden
      >
        <Icon className="h-4 w-4" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0">
          <p className="text-sm text-slate-900" data-testid="story-text">
            {parts.before}
            {parts.campaign ? (
              entry.campaignId ? (
                <Link to={`/campaigns/${entry.campaignId}`} className="font-medium text-primary hover:underline">
                  {parts.campaign}
                </Link>
              ) : (
                <span className="font-medium">{parts.campaign}</span>
              )
            ) : null}
            {parts.after}
          </p>
          {parts.detail ? (
            <p className="break-words text-xs text-slate-500 [overflow-wrap:anywhere]" data-testid="story-detail">
              {parts.detail}
            </p>
          ) : null}
        </div>
        <DateTime value={entry.at} format="dateTime" className="shrink-0 text-xs text-slate-500 sm:pt-0.5" />
      </div>
    </li>
  );
}

/**
 * The card. `page` is the loader's page (the newest, or the one after `?story=` without
 * JavaScript); `here` the customer page's path.
 */
export function CustomerStory({ page, here, older }: { page: StoryPage; here: string; older: boolean }) {
  const fetcher = useFetcher<{ story: StoryPage }>();
  const [more, setMore] = useState<StoryPage[]>([]);
  // A new first page (another customer, or the page loaded again) starts over.
  useEffect(() => setMore([]), [page]);
  useEffect(() => {
    const loaded = fetcher.data?.story;
    if (fetcher.state === "idle" && loaded) setMore((pages) => (pages.includes(loaded) ? pages : [...pages, loaded]));
  }, [fetcher.state, fetcher.data]);

  const entries = [page, ...more].flatMap((p) => p.entries);
  const nextCursor = (more.at(-1) ?? page).nextCursor;
  const olderHref = nextCursor ? `${here}?${STORY_PARAM}=${encodeURIComponent(nextCursor)}#email-history` : null;
  const showOlder = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!nextCursor || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    if (fetcher.state === "idle") fetcher.load(`${here}?${STORY_PARAM}=${encodeURIComponent(nextCursor)}`);
  };

  return (
    <section className="card scroll-mt-20" id="email-history" aria-labelledby="email-history-heading">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-4 sm:px-6">
        <h3 id="email-history-heading" className="font-semibold text-slate-900">
          E-mail history
        </h3>
        {older ? (
          <Link to={`${here}#email-history`} className="text-sm font-medium text-primary hover:underline">
            Back to the newest
          </Link>
        ) : null}
      </div>
      {entries.length === 0 ? (
        <div className="px-6 py-10 text-center text-sm text-slate-500" data-testid="story-empty">
          <History className="mx-auto mb-2 h-6 w-6 text-slate-300" aria-hidden />
          <p className="font-medium text-slate-600">{older ? "Nothing older" : STORY_EMPTY}</p>
          {older ? null : <p className="mt-1">{STORY_EMPTY_DETAIL}</p>}
        </div>
      ) : (
        <ol className="divide-y divide-slate-100" data-testid="email-history">
          {entries.map((entry, i) => (
            <StoryItem key={`${entry.at}-${entry.kind}-${i}`} entry={entry} />
          ))}
        </ol>
      )}
      {olderHref ? (
        <div className="border-t border-slate-100 px-4 py-3 text-center sm:px-6">
          <Link
            to={olderHref}
            onClick={showOlder}
            preventScrollReset
            className="btn-secondary"
            aria-disabled={fetcher.state !== "idle" || undefined}
          >
            <ChevronDown className="h-4 w-4" aria-hidden />
            {fetcher.state !== "idle" ? "Loading…" : "Show older"}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
