// /tags: the user's tags by name, each with how many customers carry it (docs/decisions/0041-custom-fields-and-tags.md).
// A tag is renamed in its row (?rename=<tag>); a new name that is another tag's (in any case) makes
// the two one, which the form says as it is typed and the toast says after. Delete asks first and
// says how many customers carry the tag. Tags are made where customers are tagged: the customer
// form and page, a segment, the customer list and the CSV import. Links, dialogs driven by the
// address and plain form posts, so all of it works without JavaScript; on a phone the rows are cards.
import { getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Tag as TagIcon } from "lucide-react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { useDelegatedLinks } from "~/components/fast-rows";
import { Field, liveChecks } from "~/components/forms";
import { CardCell, ColumnHeader, EmptyRow, ListTable } from "~/components/list-table";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { RowRenameForm } from "~/components/row-rename-form";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { formatCount } from "~/lib/numbers";
import { invariantResponse, orRespond, refusedWith } from "~/lib/responses";
import { normaliseTag, tagKey } from "~/lib/tags";
import { DeleteTagFormSchema, RenameTagFormSchema } from "~/schemas/tag-form";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import { deleteTag, listTags, renameTag, type TagDto } from "~/services/tags.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Tags · ${BRAND}` }];

const LOAD_FAILED = "Failed to load the tags. Please try again.";
const DELETE_FAILED = "Failed to delete the tag. Please try again.";

/** The tag named in the address (?delete=, ?rename=), compared without case. */
function tagInAddress(tags: TagDto[], name: string | null): TagDto | null {
  if (!name) return null;
  return tags.find((t) => tagKey(t.name) === tagKey(name)) ?? null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const tags = await listTags(user.id);
  return {
    tags,
    deleting: tagInAddress(tags, params.get("delete")),
    renaming: tagInAddress(tags, params.get("rename"))?.name ?? null,
  };
}

/** "3 customers", "1 customer". */
const customersText = (n: number) => `${formatCount(n)} ${n === 1 ? "customer" : "customers"}`;

/** "3 customers carry", "1 customer carries". */
const carriersText = (n: number) => `${customersText(n)} ${n === 1 ? "carries" : "carry"}`;

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const formData = await request.formData();

  if (formData.get("intent") === "rename") {
    const submission = parseWithZod(formData, { schema: RenameTagFormSchema });
    if (submission.status !== "success") return replyUnfinished(submission);
    const { tag, name } = submission.value;
    // Onto another tag's name the two become one: said before it is done, so the toast can say it.
    const before = await listTags(user.id);
    // A tag that is gone (deleted in another tab, or another user's) is a 404 like any record.
    invariantResponse(tagInAddress(before, tag), "Rename failed: Tag not found");
    const other = before.find((t) => tagKey(t.name) === tagKey(name) && tagKey(t.name) !== tagKey(tag));
    let renamed: TagDto;
    try {
      renamed = await renameTag(user.id, tag, name);
    } catch (error) {
      return replyRefused(submission, error, error instanceof ApiError ? error.message : "Failed to rename the tag.");
    }
    return redirectWithFlash(request, "/tags", {
      kind: "toast",
      type: "success",
      message: other
        ? `"${normaliseTag(tag)}" merged into "${renamed.name}": ${carriersText(renamed.customers)} it now`
        : `Tag renamed to "${renamed.name}"`,
    });
  }

  const submission = DeleteTagFormSchema.safeParse(Object.fromEntries(formData));
  if (!submission.success)
    return redirectWithFlash(request, "/tags", { kind: "toast", type: "error", message: DELETE_FAILED });
  const { untagged } = await orRespond(deleteTag(user.id, submission.data.tag), refusedWith("Delete failed"));
  return redirectWithFlash(request, "/tags", {
    kind: "toast",
    type: "success",
    message: `Tag "${normaliseTag(submission.data.tag)}" deleted from ${customersText(untagged)}`,
  });
}

export default function Tags() {
  const { tags, deleting, renaming } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const onRowsClick = useDelegatedLinks();
  const total = tags.length;

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div>
        <h2 className="text-2xl font-bold text-slate-900">Tags</h2>
        <p className="text-slate-600">
          Labels you put on customers. Add them on a customer&apos;s form or page, to everyone in a segment, to
          customers ticked in the list, or with a CSV import.
        </p>
        <p className="text-sm text-slate-500" data-testid="tag-count">
          {formatCount(total)} {total === 1 ? "tag" : "tags"}
        </p>
      </div>

      <RowActionSprite />
      <section className="card overflow-hidden" aria-label="Tags">
        <ListTable
          onRowsClick={onRowsClick}
          head={
            <>
              <ColumnHeader>Tag</ColumnHeader>
              <ColumnHeader className="px-4 py-3 text-right">Customers</ColumnHeader>
              <ColumnHeader className="px-4 py-3 text-right">Actions</ColumnHeader>
            </>
          }
        >
          {tags.length === 0 ? (
            <EmptyRow colSpan={3} icon={TagIcon} title="No tags yet" textClassName="mx-auto max-w-xl">
              Tag a customer on their page or form, or everyone in a segment from the segment&apos;s page.
            </EmptyRow>
          ) : (
            tags.map((t) => (
              <tr key={t.name} className="hover:bg-slate-50" data-testid="tag-row">
                <td className="px-4 py-3">
                  {renaming === t.name ? (
                    <RenameTagForm
                      tag={t.name}
                      others={tags.filter((o) => o.name !== t.name).map((o) => o.name)}
                      reply={reply}
                    />
                  ) : (
                    <span className="inline-flex rounded-full bg-primary-light px-3 py-1 text-xs font-medium text-primary">
                      {t.name}
                    </span>
                  )}
                </td>
                <CardCell label="Customers" className="px-4 py-3 text-right tabular-nums text-slate-700">
                  {formatCount(t.customers)}
                </CardCell>
                <RowActions
                  className="px-4 py-3 text-right"
                  actions={[
                    {
                      icon: "edit",
                      href: `?rename=${encodeURIComponent(t.name)}`,
                      label: `Rename ${t.name}`,
                      title: "Rename",
                    },
                    {
                      icon: "delete",
                      href: `?delete=${encodeURIComponent(t.name)}`,
                      label: `Delete ${t.name}`,
                      title: "Delete",
                    },
                  ]}
                />
              </tr>
            ))
          )}
        </ListTable>
      </section>

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete tag"
        message={
          deleting ? (
            <p>
              Delete <strong>“{deleting.name}”</strong>?{" "}
              {deleting.customers === 0
                ? "No customer carries it."
                : `${carriersText(deleting.customers)} it; it is taken off ${deleting.customers === 1 ? "them" : "all of them"}.`}
            </p>
          ) : null
        }
        cancelHref="/tags"
        action="/tags"
        fields={{ intent: "delete", tag: deleting?.name ?? "" }}
        confirmLabel="Delete"
      />
    </div>
  );
}

/** The row's new name, with Save and Cancel; a name that is another tag's says the two become one. */
function RenameTagForm({ tag, others, reply }: { tag: string; others: string[]; reply: unknown }) {
  const [form, fields] = useForm({
    id: "rename-tag",
    lastResult: reply as never,
    defaultValue: { name: tag },
    ...liveChecks(RenameTagFormSchema),
  });
  const typed = String(fields.name.value ?? "");
  const merges = others.find((o) => typed.trim() !== "" && tagKey(o) === tagKey(typed));
  return (
    <RowRenameForm form={form} page="/tags" keyName="tag" rowKey={tag} saveLabel={merges ? "Merge" : "Save"}>
      <Field
        label={`New name for ${tag}`}
        hint={
          merges
            ? `“${merges}” exists: the two tags become one, “${merges}”.`
            : "The name of another tag makes the two one."
        }
        inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off", autoFocus: true }}
        errors={fields.name.errors}
      />
    </RowRenameForm>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/tags" fallback={LOAD_FAILED} />;
}
