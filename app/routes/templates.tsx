// /templates: the user's message templates, last edited first, searched by name or subject, and the
// starter templates below them (docs/decisions/0043-templates-and-merge-tags.md). A new template
// starts as blocks, HTML or Markdown, or from a starter ("Use this template" makes the user's own
// copy); each opens in the editor (/templates/:id), which duplicates it. Edit and Delete (asked first) in each row,
// and a small preview of the template beside its name (drawn with JavaScript; a plain initial without).
// Plain links and form posts: all of it works without JavaScript; on a phone the rows are cards.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Copy, LayoutTemplate, Palette, Send } from "lucide-react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PostButton } from "~/components/post-button";
import { DateTime } from "~/components/date-time";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { useDelegatedLinks } from "~/components/fast-rows";
import { CardCell, ColumnHeader, EmptyRow, ListTable } from "~/components/list-table";
import { ListSearch } from "~/components/list-search";
import { PageHeader } from "~/components/page-header";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { TemplateThumbnail } from "~/components/templates/template-thumbnail";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { orRespond, refusedWith } from "~/lib/responses";
import { isTemplateFormat, TEMPLATE_FORMAT_LABELS, TEMPLATE_FORMATS } from "~/lib/templates";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import { deleteTemplate, duplicateTemplate, listTemplates, newTemplate } from "~/services/templates.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Templates · ${BRAND}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, 100);
  const templates = await listTemplates(user.id, q);
  const deleteId = params.get("delete");
  const deleting = deleteId ? (templates.find((t) => t.id === deleteId && !t.starter) ?? null) : null;
  return {
    q,
    own: templates.filter((t) => !t.starter),
    starters: templates.filter((t) => t.starter),
    deleting,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  if (intent === "new") {
    const format = String(form.get("format") ?? "");
    const made = await orRespond(
      newTemplate(user.id, isTemplateFormat(format) ? format : "blocks"),
      refusedWith("Create failed"),
    );
    return redirectWithFlash(request, `/templates/${made.id}`, {
      kind: "toast",
      type: "success",
      message: "Template created",
    });
  }
  if (intent === "duplicate") {
    const copy = await orRespond(duplicateTemplate(user.id, id), refusedWith("Duplicate failed"));
    return redirectWithFlash(request, `/templates/${copy.id}`, {
      kind: "toast",
      type: "success",
      message: `"${copy.name}" is yours to edit`,
    });
  }
  if (intent === "delete") {
    await orRespond(deleteTemplate(user.id, id), refusedWith("Delete failed"));
    return redirectWithFlash(request, "/templates", { kind: "toast", type: "success", message: "Template deleted" });
  }
  return redirectWithFlash(request, "/templates", {
    kind: "toast",
    type: "error",
    message: "That did not work. Please try again.",
  });
}

/** A template's small preview beside its name (a link to the editor) and its subject: a row's and a starter card's. */
function TemplateTitle({
  template: t,
  subjectClassName,
}: {
  template: { id: string; version: number; name: string; subject: string };
  subjectClassName: string;
}) {
  return (
    <div className="flex items-center gap-3">
      <TemplateThumbnail id={t.id} version={t.version} name={t.name} />
      <div className="min-w-0">
        <Link to={`/templates/${t.id}`} className="font-medium text-primary hover:underline">
          {t.name}
        </Link>
        <p className={subjectClassName}>{t.subject}</p>
      </div>
    </div>
  );
}

export default function Templates() {
  const { q, own, starters, deleting } = useLoaderData<typeof loader>();
  const onRowsClick = useDelegatedLinks();
  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <PageHeader
        title="Templates"
        titleClassName="min-w-0"
        actions={
          <div className="flex flex-wrap gap-2" role="group" aria-label="New template">
            {TEMPLATE_FORMATS.map((format) => (
              <PostButton
                key={format}
                action="/templates"
                fields={{ intent: "new", format }}
                className={format === "blocks" ? "btn-primary" : "btn-secondary"}
              >
                New {TEMPLATE_FORMAT_LABELS[format]} template
              </PostButton>
            ))}
          </div>
        }
      >
        <p className="text-slate-600">
          Designs you reuse across campaigns. Blocks make a message that reads well on a phone; HTML and Markdown are
          for writing it yourself.{" "}
          <Link to="/templates/brand" className="inline-flex items-center gap-1 text-primary hover:underline">
            <Palette className="h-4 w-4" aria-hidden /> Brand and images
          </Link>
        </p>
      </PageHeader>

      <RowActionSprite />
      <section className="card overflow-hidden" aria-label="Your templates">
        <div className="border-b border-slate-100 px-4 py-3">
          <ListSearch id="template-search" label="Search templates" placeholder="Search by name or subject" q={q} />
        </div>
        <ListTable
          onRowsClick={onRowsClick}
          head={
            <>
              <ColumnHeader>Name</ColumnHeader>
              <ColumnHeader>Format</ColumnHeader>
              <ColumnHeader>Last edited</ColumnHeader>
              <ColumnHeader className="px-4 py-3 text-right">Actions</ColumnHeader>
            </>
          }
        >
          {own.length === 0 ? (
            <EmptyRow colSpan={4} icon={LayoutTemplate} title={q ? "No template matches" : "No templates yet"}>
              {q ? "Try another word." : "Start one above, or use a starter template below."}
            </EmptyRow>
          ) : (
            own.map((t) => (
              <tr key={t.id} className="hover:bg-slate-50" data-testid="template-row">
                <td className="px-4 py-3">
                  <TemplateTitle template={t} subjectClassName="truncate text-sm text-slate-500" />
                </td>
                <CardCell label="Format" className="px-4 py-3 text-slate-700">
                  {TEMPLATE_FORMAT_LABELS[t.format]}
                </CardCell>
                <CardCell label="Last edited" className="px-4 py-3 text-slate-700">
                  <DateTime value={t.updatedAt} format="dateTime" />
                </CardCell>
                <RowActions
                  className="px-4 py-3 text-right"
                  actions={[
                    { icon: "edit", href: `/templates/${t.id}`, label: `Edit ${t.name}`, title: "Edit" },
                    { icon: "delete", href: `?delete=${t.id}`, label: `Delete ${t.name}`, title: "Delete" },
                  ]}
                />
              </tr>
            ))
          )}
        </ListTable>
      </section>

      {starters.length > 0 ? (
        <section aria-labelledby="starters-title" className="space-y-3">
          <h3 id="starters-title" className="text-lg font-semibold text-slate-900">
            Starter templates
          </h3>
          <ul className="grid gap-3 sm:grid-cols-2">
            {starters.map((t) => (
              <li key={t.id} className="card flex flex-col gap-2 p-4" data-testid="starter-template">
                <TemplateTitle template={t} subjectClassName="text-sm text-slate-600" />
                <div className="mt-auto flex flex-wrap gap-2">
                  <PostButton action="/templates" fields={{ intent: "duplicate", id: t.id }} className="btn-secondary">
                    <Copy className="h-4 w-4" aria-hidden /> Use this template
                  </PostButton>
                  <Link to={`/campaigns/new?templateId=${t.id}`} className="btn-ghost">
                    <Send className="h-4 w-4" aria-hidden /> Send as a campaign
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete template"
        message={
          deleting ? (
            <p>
              Delete <strong>“{deleting.name}”</strong>? This cannot be undone.
            </p>
          ) : null
        }
        cancelHref="/templates"
        action="/templates"
        fields={{ intent: "delete", id: deleting?.id ?? "" }}
        confirmLabel="Delete"
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/templates" fallback="Failed to load the templates. Please try again." />;
}
