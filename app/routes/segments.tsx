// /segments: Customer Segments (docs/rules.md#segments): four stat cards, the searchable and sortable table, the
// empty state, and delete with a confirmation that works with and without JavaScript (it names the
// draft campaigns the delete would leave without a segment).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import { AlertTriangle, ArrowDownWideNarrow, ArrowUpNarrowWide, Megaphone, Search, Target, Users } from "lucide-react";
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { CountCard } from "~/components/count-card";
import { CreateLink } from "~/components/create-link";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import { DateTime } from "~/components/date-time";
import { useDelegatedLinks } from "~/components/fast-rows";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { orRespond } from "~/lib/responses";
import { segmentChipClass } from "~/lib/segment-descriptions";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import {
  deleteSegment,
  listSegments,
  segmentDeleteWarning,
  segmentFieldNotes,
  segmentStats,
} from "~/services/segments.server";
import { withSearchParams } from "~/lib/search-params";
import { PageHeader } from "~/components/page-header";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Customer Segments · ${BRAND}` }];

const QuerySchema = z.object({
  q: z.string().trim().max(200).catch(""),
  sort: z.enum(["date", "name", "size"]).catch("date"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
});

const LOAD_FAILED = "Failed to load segments.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const dir = query.dir ?? (query.sort === "name" ? "asc" : "desc");
  const [segments, all] = await orRespond(
    Promise.all([listSegments(user.id, { q: query.q, sort: query.sort, dir }), query.q ? listSegments(user.id) : null]),
    LOAD_FAILED,
  );
  const stats = await orRespond(segmentStats(user.id, all ?? segments), LOAD_FAILED);
  // The delete confirmation (?delete=<id>) names the drafts the delete would leave without a segment.
  const deleting = new URL(request.url).searchParams.get("delete");
  const deleteWarning = deleting ? await segmentDeleteWarning(user.id, deleting) : null;
  // A segment whose field was deleted since says so under its name.
  const notes = await orRespond(segmentFieldNotes(user.id, segments), LOAD_FAILED);
  return { segments, stats, q: query.q, sort: query.sort, dir, deleteWarning, notes };
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  if (form.get("intent") !== "delete") return data({ message: "Unknown action" }, { status: 400 });
  try {
    await deleteSegment(user.id, id);
  } catch (error) {
    if (error instanceof ApiError)
      return data({ message: `Delete failed: ${error.message}` }, { status: error.status });
    return data({ message: "Failed to delete segment. Please try again." }, { status: 500 });
  }
  const back = new URL(request.url);
  back.searchParams.delete("delete");
  back.searchParams.delete("index");
  return redirectWithFlash(request, `/segments${back.search}`, {
    kind: "toast",
    type: "success",
    message: "Segment deleted successfully",
  });
}

const SORTS = [
  { value: "date", label: "Date created" },
  { value: "name", label: "Name" },
  { value: "size", label: "Audience size" },
] as const;

export default function Segments() {
  const { segments, stats, q, sort, dir, deleteWarning, notes } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const [params] = useSearchParams();
  const onRowsClick = useDelegatedLinks();
  const submit = useSubmit();
  const searchForm = useRef<HTMLFormElement>(null);
  const dirInput = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const deleting = segments.find((s) => s.id === params.get("delete"));

  useEffect(() => {
    if (failure?.message) toast.error(failure.message);
  }, [failure]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const withParams = (changes: Record<string, string | null>) => withSearchParams(params, changes);
  const submitSearch = (delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (searchForm.current) submit(searchForm.current, { replace: true, preventScrollReset: true });
    }, delay);
  };
  const number = formatCount;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title="Customer Segments" actions={<CreateLink to="/segments/new">Create Segment</CreateLink>}>
        <p className="text-slate-600">Group customers by spend, visits and activity, and target them with campaigns.</p>
      </PageHeader>

      <section aria-label="Segment statistics" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <CountCard label="Total Segments" count={stats.totalSegments} icon={Target} />
        <CountCard label="Total Audience" count={stats.totalAudience} icon={Users} />
        <CountCard label="Avg. Segment Size" count={stats.avgSegmentSize} icon={Users} />
        <CountCard label="Campaigns Created" count={stats.campaignsCreated} icon={Megaphone} />
      </section>

      <section className="card" aria-label="Segments">
        <Form
          ref={searchForm}
          method="get"
          role="search"
          className="flex flex-wrap items-center gap-2 border-b border-slate-100 p-4"
          onChange={(e) => {
            const changed = (e.target as HTMLElement).getAttribute("name");
            // A new sort starts in its natural direction (names A to Z, sizes and dates largest first).
            if (changed === "sort" && dirInput.current) dirInput.current.value = "";
            submitSearch(changed === "q" ? 300 : 0);
          }}
        >
          <div className="relative min-w-48 flex-1">
            <Search
              className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
              aria-hidden="true"
            />
            <input
              type="search"
              name="q"
              defaultValue={q}
              placeholder="Search segments by name"
              aria-label="Search segments by name"
              className="input pl-9"
            />
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-600">
            <span>Sort by</span>
            <select name="sort" defaultValue={sort} className="input w-auto" aria-label="Sort by">
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <input ref={dirInput} type="hidden" name="dir" defaultValue={dir} key={`${sort}-${dir}`} />
          <Link
            to={withParams({ dir: dir === "asc" ? "desc" : "asc", delete: null })}
            replace
            preventScrollReset
            className="btn-ghost"
            aria-label={
              dir === "asc" ? "Sorted ascending, switch to descending" : "Sorted descending, switch to ascending"
            }
            title={dir === "asc" ? "Ascending" : "Descending"}
          >
            {dir === "asc" ? <ArrowUpNarrowWide className="h-4 w-4" /> : <ArrowDownWideNarrow className="h-4 w-4" />}
          </Link>
          <noscript>
            <button type="submit" className="btn-secondary">
              Apply
            </button>
          </noscript>
        </Form>

        {segments.length === 0 ? (
          <div className="px-6 py-14 text-center">
            <Target className="mx-auto h-10 w-10 text-slate-300" aria-hidden="true" />
            {q ? (
              <>
                <p className="mt-3 font-semibold text-slate-800">No segments match "{q}"</p>
                <p className="mt-1 text-sm text-slate-500">Try another name, or clear the search.</p>
                <Link to="/segments" className="btn-secondary mt-4">
                  Clear search
                </Link>
              </>
            ) : (
              <>
                <p className="mt-3 font-semibold text-slate-800">No segments yet</p>
                <p className="mt-1 text-sm text-slate-500">
                  Create your first segment to group customers by spend, visits and activity.
                </p>
                <CreateLink to="/segments/new" className="btn-primary mt-4">
                  Create Segment
                </CreateLink>
              </>
            )}
          </div>
        ) : (
          <div className="overflow-x-auto">
            <RowActionSprite />
            <ListTable
              fixed
              className="sm:min-w-[640px]"
              onRowsClick={onRowsClick}
              head={
                <>
                  <ColumnHeader className="px-4 py-3 font-medium">Segment Name</ColumnHeader>
                  <ColumnHeader className="px-4 py-3 font-medium">Audience Size</ColumnHeader>
                  <ColumnHeader className="px-4 py-3 font-medium">Created</ColumnHeader>
                  <ColumnHeader className="px-4 py-3 text-right font-medium">Actions</ColumnHeader>
                </>
              }
            >
              {segments.map((s) => (
                <tr key={s.id} data-testid="segment-row" className="hover:bg-slate-50/60">
                  <td className="px-4 py-3">
                    <Link
                      to={`/segments/${s.id}`}
                      className={`inline-block max-w-full truncate rounded-full sm:max-w-xs px-3 py-1 text-sm font-medium ${segmentChipClass(s.name)}`}
                    >
                      {s.name}
                    </Link>
                    {s.description ? (
                      <p className="mt-1 max-w-md truncate text-xs text-slate-500">{s.description}</p>
                    ) : null}
                    {(notes[s.id] ?? []).map((note) => (
                      <p
                        key={note}
                        className="mt-1 flex max-w-md items-start gap-1 text-xs font-medium text-amber-700"
                        data-testid="segment-warning"
                      >
                        <AlertTriangle className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
                        <span>{note}</span>
                      </p>
                    ))}
                  </td>
                  <CardCell label="Audience" className="px-4 py-3 font-medium text-slate-800">
                    {number(s.customerCount)} customers
                  </CardCell>
                  <CardCell label="Created" className="px-4 py-3 text-slate-600">
                    <DateTime value={s.createdAt} />
                  </CardCell>
                  <RowActions
                    actions={[
                      { icon: "view", href: `/segments/${s.id}`, label: `View ${s.name}`, title: "View" },
                      { icon: "edit", href: `/segments/edit/${s.id}`, label: `Edit ${s.name}`, title: "Edit" },
                      {
                        icon: "campaign",
                        href: `/campaigns/new?segmentId=${s.id}`,
                        label: `Create campaign for ${s.name}`,
                        title: "Create campaign",
                      },
                      {
                        icon: "delete",
                        href: withParams({ delete: s.id }),
                        label: `Delete ${s.name}`,
                        title: "Delete",
                      },
                    ]}
                  />
                </tr>
              ))}
            </ListTable>
          </div>
        )}
      </section>

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete Segment"
        message={
          <>
            <p>
              Are you sure you want to delete the segment &ldquo;{deleting?.name}&rdquo;? This action cannot be undone.
            </p>
            {deleteWarning ? (
              <p className="mt-2 flex gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
                <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                <span data-testid="delete-warning">{deleteWarning}</span>
              </p>
            ) : null}
          </>
        }
        cancelHref={withParams({ delete: null })}
        action={`/segments${withParams({ delete: null })}`}
        fields={{ intent: "delete", id: deleting?.id ?? "" }}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/" fallback={LOAD_FAILED} />;
}
