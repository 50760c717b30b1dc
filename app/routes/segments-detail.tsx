// /segments/{id}: name, created date, description, audience size, the conditions as formatted
// JSON, the first 10 customers with view links, and Edit Segment / Create Campaign. "Tag everyone in
// this segment" puts a tag on every customer the segment matches now (a form post; the toast says
// how many got it).
import { getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AlertTriangle, ArrowLeft, Megaphone, Pencil, Tag } from "lucide-react";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, liveChecks } from "~/components/forms";
import { useDelegatedLinks } from "~/components/fast-rows";
import { IntentForm, usePostingIntent } from "~/components/intent-form";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import { DateTime } from "~/components/date-time";
import { replyUnfinished } from "~/lib/forms.server";
import { orRespond } from "~/lib/responses";
import { formatRupees } from "~/lib/money";
import { describeTree, segmentChipClass } from "~/lib/segment-descriptions";
import { SegmentTagFormSchema } from "~/schemas/tag-form";
import { requireUser } from "~/services/auth.server";
import { segmentAudienceCount, segmentOverview } from "~/services/segments.server";
import { redirectWithFlash } from "~/services/session.server";
import { tagInBulk } from "~/services/tags.server";
import { useResetAfterPost } from "~/components/reset-after-post";
import { SubmitButton } from "~/components/submit-button";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.segment.name ?? "Segment"} · ${BRAND}` },
];

const LOAD_FAILED = "Failed to load segment data. Please try again.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const overview = await orRespond(segmentOverview(user.id, params.id ?? ""), LOAD_FAILED);
  const { segment, count, customers, fieldLabels, segmentNames, warnings } = overview;
  const { tree, ...rest } = segment;
  // The conditions in words name the tenant's fields by their labels and the segments it includes
  // by their names; a field or a segment deleted since is warned of.
  const summary = describeTree(tree, fieldLabels, segmentNames);
  return { segment: { ...rest, summary }, count, customers, warnings };
}

/** "Tag everyone in this segment": the tag on every customer the segment matches now. */
export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const id = params.id ?? "";
  const submission = parseWithZod(await request.formData(), { schema: SegmentTagFormSchema });
  if (submission.status !== "success") return replyUnfinished(submission);
  // Another user's segment, or one that is gone, is a 404 like its page.
  const { tag, tagged } = await orRespond(tagInBulk(user.id, submission.value.tag, { segmentId: id }), LOAD_FAILED);
  let message = `${formatCount(tagged)} ${tagged === 1 ? "customer" : "customers"} got the tag "${tag}"`;
  if (tagged === 0) {
    message =
      (await segmentAudienceCount(user.id, id)) === 0
        ? `No customer got the tag "${tag}": no one is in this segment`
        : `No customer got the tag "${tag}": everyone in this segment has it already`;
  }
  return redirectWithFlash(request, `/segments/${encodeURIComponent(id)}`, { kind: "toast", type: "success", message });
}

export default function SegmentDetail() {
  const { segment, count, customers, warnings } = useLoaderData<typeof loader>();
  const onRowsClick = useDelegatedLinks();
  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <Link to="/segments" className="btn-ghost" aria-label="Back to Segments">
            <ArrowLeft className="h-5 w-5" />
          </Link>
          <h2 className="truncate text-2xl font-bold text-slate-900">{segment.name}</h2>
          <span
            className={`hidden rounded-full px-2.5 py-0.5 text-xs font-medium sm:inline ${segmentChipClass(segment.name)}`}
          >
            Segment
          </span>
        </div>
        <div className="flex gap-2">
          <Link to={`/segments/edit/${segment.id}`} className="btn-secondary">
            <Pencil className="h-4 w-4" aria-hidden="true" /> Edit Segment
          </Link>
          <Link to={`/campaigns/new?segmentId=${segment.id}`} className="btn-primary">
            <Megaphone className="h-4 w-4" aria-hidden="true" /> Create Campaign
          </Link>
        </div>
      </div>

      <section className="card grid gap-4 p-5 sm:grid-cols-3" aria-label="Segment details">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">Created</p>
          <p className="font-medium text-slate-800">
            <DateTime value={segment.createdAt} format="long" />
          </p>
        </div>
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">Audience Size</p>
          <p className="text-2xl font-bold text-primary" data-testid="audience-size">
            {formatCount(count)}
          </p>
        </div>
        <div className="sm:col-span-3">
          <p className="text-xs uppercase tracking-wide text-slate-500">Description</p>
          <p className="text-slate-700">{segment.description || "No description"}</p>
        </div>
      </section>

      <TagEveryone />

      <section className="card p-5" aria-labelledby="conditions-title">
        <h3 id="conditions-title" className="font-semibold text-slate-900">
          Query Conditions
        </h3>
        <p className="mt-1 text-sm text-slate-600">{segment.summary}</p>
        {warnings.length > 0 ? (
          <div
            className="mt-2 flex gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            data-testid="segment-warnings"
          >
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <div>
              {warnings.map((warning) => (
                <p key={warning} className="font-medium" data-testid="segment-warning">
                  {warning}
                </p>
              ))}
              {warnings.some((w) => w.startsWith("Uses")) ? (
                <p>
                  A condition on a deleted field matches as if no customer had a value. Edit the segment to change it.
                </p>
              ) : null}
            </div>
          </div>
        ) : null}
        <pre
          className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100"
          data-testid="conditions-json"
        >
          {JSON.stringify(segment.conditions, null, 2)}
        </pre>
      </section>

      <section className="card" aria-labelledby="audience-title">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-5 py-4">
          <h3 id="audience-title" className="font-semibold text-slate-900">
            Audience
          </h3>
          <p className="text-sm text-slate-500" data-testid="audience-note">
            Showing {formatCount(customers.length)} of {formatCount(count)}
          </p>
        </div>
        {customers.length === 0 ? (
          <p className="px-5 py-10 text-center text-sm text-slate-500">No customers match this segment yet.</p>
        ) : (
          <div className="sm:overflow-x-auto">
            <RowActionSprite />
            <ListTable
              fixed
              className="sm:min-w-[560px]"
              onRowsClick={onRowsClick}
              head={
                <>
                  <ColumnHeader className="px-4 py-3 font-medium">Customer</ColumnHeader>
                  <ColumnHeader className="px-4 py-3 font-medium">Contact</ColumnHeader>
                  <ColumnHeader className="px-4 py-3 font-medium">Total Spend</ColumnHeader>
                  <ColumnHeader className="px-4 py-3 text-right font-medium">Actions</ColumnHeader>
                </>
              }
            >
              {customers.map((c) => {
                const name = `${c.firstName} ${c.lastName}`.trim() || "Unknown Customer";
                return (
                  <tr key={c.id} data-testid="audience-row">
                    <td className="px-4 py-3 font-medium text-slate-800">{name}</td>
                    <td className="px-4 py-3">
                      <p className="text-slate-700">{c.email || "No email provided"}</p>
                      <p className="text-xs text-slate-500">{c.phone || "No phone provided"}</p>
                    </td>
                    <CardCell label="Total Spend" className="px-4 py-3 text-slate-700">
                      {formatRupees(c.totalSpend)}
                    </CardCell>
                    <RowActions
                      className="px-4 py-3 text-right"
                      actions={[
                        { icon: "view", href: `/customers/${c.id}`, label: `View ${name}`, title: "View customer" },
                      ]}
                    />
                  </tr>
                );
              })}
            </ListTable>
          </div>
        )}
      </section>
    </div>
  );
}

/** The "Tag everyone in this segment" form: a tag name and its button. */
function TagEveryone() {
  const reply = useActionData<typeof action>();
  const tagging = usePostingIntent("tag");
  const [form, fields] = useForm({
    id: "tag-segment",
    lastResult: reply,
    ...liveChecks(SegmentTagFormSchema),
  });
  // After the tag was put on (the action redirected: no reply), the form starts empty again.
  useResetAfterPost(tagging, reply, () => form.reset());
  return (
    <section className="card p-5" aria-labelledby="tag-everyone-title">
      <h3 id="tag-everyone-title" className="font-semibold text-slate-900">
        Tag everyone in this segment
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Everyone the segment matches now gets the tag. Customers who match later do not.
      </p>
      <IntentForm
        form={form}
        intent="tag"
        preventScrollReset
        className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-start"
      >
        <Field
          className="flex-1 sm:max-w-sm"
          label="Tag"
          inputProps={{ ...getInputProps(fields.tag, { type: "text" }), autoComplete: "off", placeholder: "VIP" }}
          errors={fields.tag.errors}
        />
        <SubmitButton className="btn-secondary sm:mt-6" busy={tagging} busyLabel="Tagging..." icon={Tag}>
          Tag everyone
        </SubmitButton>
      </IntentForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/segments" fallback={LOAD_FAILED} />;
}
