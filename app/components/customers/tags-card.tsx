// The customer page's Tags card: the customer's tags as chips, each with a remove button (a form
// post, without JavaScript too), and the form that adds tags (app/routes/customers-detail.tsx).
import type { SubmissionResult } from "@conform-to/react";
import { getInputProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Plus, X } from "lucide-react";
import { Field, liveChecks } from "~/components/forms";
import { AddTagsFormSchema } from "~/schemas/tag-form";
import { IntentForm, usePostingIntent } from "~/components/intent-form";
import { SubmitButton } from "~/components/submit-button";
import { TitledCard } from "~/components/titled-card";

/** The customer's tags as chips, each with a remove button (a form), and the form that adds tags. */
export function TagsCard({
  id,
  tags,
  otherTags,
  lastResult,
}: {
  id: string;
  tags: string[];
  otherTags: string[];
  /** The action's reply when it answered this form (its values and errors kept). */
  lastResult?: SubmissionResult<string[]>;
}) {
  const adding = usePostingIntent("tag");
  const here = `/customers/${id}`;
  const [form, fields] = useForm({
    id: "add-tags",
    lastResult,
    ...liveChecks(AddTagsFormSchema),
  });
  return (
    <TitledCard headingId="tags-heading" title="Tags">
      {tags.length === 0 ? (
        <p className="text-sm text-slate-500">No tags yet</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label="Tags of this customer">
          {tags.map((t) => (
            <li
              key={t}
              className="inline-flex items-center gap-1 rounded-full bg-primary-light py-0.5 pl-3 pr-1 text-xs font-medium text-primary"
              data-testid="customer-tag"
            >
              <span className="break-all">{t}</span>
              <Form method="post" action={here} preventScrollReset className="contents">
                <input type="hidden" name="intent" value="untag" />
                <input type="hidden" name="tag" value={t} />
                <button
                  type="submit"
                  className="rounded-full p-1 hover:bg-primary/10 focus-visible:outline-2 focus-visible:outline-primary"
                  aria-label={`Remove tag ${t}`}
                  title="Remove tag"
                >
                  <X className="h-4 w-4" aria-hidden />
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <IntentForm
        form={form}
        intent="tag"
        action={here}
        preventScrollReset
        className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-start"
      >
        <Field
          className="flex-1"
          label="Add tags"
          hint="Separate tags with commas."
          inputProps={{
            ...getInputProps(fields.tags, { type: "text" }),
            autoComplete: "off",
            list: otherTags.length > 0 ? "other-tags" : undefined,
          }}
          errors={fields.tags.errors}
        />
        <SubmitButton className="btn-secondary sm:mt-6" busy={adding} busyLabel="Adding..." icon={Plus}>
          Add
        </SubmitButton>
        {otherTags.length > 0 ? (
          <datalist id="other-tags">
            {otherTags.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        ) : null}
      </IntentForm>
    </TitledCard>
  );
}
