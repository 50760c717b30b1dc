// The dashboard's complaint rate (docs/rules.md#bounce-and-complaint-feeds): spam reports out of the
// messages that reached a mailbox, over every campaign, against the 0.1% mailbox providers ask
// senders to stay under. Above it the card turns amber and says what to do; with nothing sent yet
// it reads "—".
import { ShieldAlert, ShieldCheck } from "lucide-react";
import { formatCount, NO_RATE } from "~/lib/numbers";
import type { ComplaintRate as Figures } from "~/services/dashboard/stats.server";

export const COMPLAINT_RATE_TEXTS = {
  title: "Complaint rate",
  limit: (limit: number) => `mailbox providers ask for under ${limit}%`,
  over: "Too many recipients are marking your campaigns as spam. Mailbox providers may start sending them to spam or refusing them.",
  whatToDo:
    "Send only to customers who asked for your e-mail, leave out those who have not opened in months, and keep the unsubscribe link easy to find.",
} as const;

export function ComplaintRate({ complaints: c }: { complaints: Figures }) {
  const Icon = c.over ? ShieldAlert : ShieldCheck;
  return (
    <section
      className={`card flex items-start gap-4 p-5 ${c.over ? "border-amber-300 bg-amber-50" : ""}`}
      aria-labelledby="complaint-rate-title"
      data-testid="complaint-rate"
      data-over={c.over ? "true" : "false"}
    >
      <div
        className={`flex h-11 w-11 shrink-0 items-center justify-center rounded-lg ${
          c.over ? "bg-amber-100 text-amber-700" : "bg-primary-light text-primary"
        }`}
      >
        <Icon className="h-5 w-5" aria-hidden="true" />
      </div>
      <div className="min-w-0 flex-1">
        <h3 id="complaint-rate-title" className="text-sm text-slate-500">
          {COMPLAINT_RATE_TEXTS.title}
        </h3>
        <p className="break-words text-slate-900">
          <span className="text-2xl font-semibold" data-testid="complaint-rate-value">
            {c.rate === null ? NO_RATE : `${c.rate.toFixed(2)}%`}
          </span>{" "}
          <span className="text-sm text-slate-600">({COMPLAINT_RATE_TEXTS.limit(c.limit)})</span>
        </p>
        <p className="mt-1 text-xs text-slate-500">
          {c.rate === null
            ? "Nothing sent yet"
            : `${formatCount(c.complaints)} spam ${c.complaints === 1 ? "report" : "reports"} out of ${formatCount(c.reached)} ${
                c.reached === 1 ? "message" : "messages"
              } sent`}
        </p>
        {c.over ? (
          <div className="mt-2 text-sm text-amber-900" role="status">
            <p className="font-medium">{COMPLAINT_RATE_TEXTS.over}</p>
            <p className="mt-1">{COMPLAINT_RATE_TEXTS.whatToDo}</p>
          </div>
        ) : null}
      </div>
    </section>
  );
}
