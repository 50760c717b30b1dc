// The rename form a list draws in a row in place of the row's name, opened by the address
// (?rename=<key>): the new name's input (the page's, as children), Save and Cancel. It posts to the
// list's page with intent=rename and the row's key, and Cancel is a link back to the list, so it
// works without JavaScript. The Fields and Tags lists use it.
import { type FormMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { IntentForm, usePostingIntent } from "~/components/intent-form";

export function RowRenameForm<Schema extends Record<string, unknown>>({
  form,
  page,
  keyName,
  rowKey,
  saveLabel = "Save",
  children,
}: {
  /** The page's useForm() of the rename. */
  form: FormMetadata<Schema, string[]>;
  /** The list's address: "/tags". */
  page: string;
  /** The form field that carries the row's key: "tag". */
  keyName: string;
  /** The row's key (the field's name, the tag). */
  rowKey: string;
  saveLabel?: string;
  /** The new name's input. */
  children: ReactNode;
}) {
  const saving = usePostingIntent("rename");
  return (
    <IntentForm
      form={form}
      intent="rename"
      action={`${page}?rename=${encodeURIComponent(rowKey)}`}
      preventScrollReset
      className="space-y-2"
    >
      <input type="hidden" name={keyName} value={rowKey} />
      {children}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : saveLabel}
        </button>
        <Link to={page} preventScrollReset className="btn-secondary">
          Cancel
        </Link>
      </div>
    </IntentForm>
  );
}
