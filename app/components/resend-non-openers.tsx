// "Resend to non-openers" on a completed campaign's detail page (and on its own page,
// /campaigns/{id}/resend, where the form's answer lands without JavaScript): who a resend would
// reach now and a plain form asking for the new subject, or why nobody is left
// (docs/rules.md#resend-to-non-openers). The form posts to /campaigns/{id}/resend, which makes the
// draft and opens it in the wizard.
import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { MailPlus, MailX } from "lucide-react";
import { Field, FormAlert, LIVE_VALIDATION } from "~/components/forms";
import { nonOpenersText, type ResendOffer } from "~/lib/campaign-resend";
import { audienceReachText } from "~/lib/campaigns";
import { ResendNonOpenersSchema } from "~/schemas/campaign-resend";

export function ResendNonOpeners({
  campaignId,
  campaignName,
  offer,
  lastResult,
}: {
  campaignId: string;
  campaignName: string;
  offer: ResendOffer;
  /** The form's last answer from /campaigns/{id}/resend (its messages under the field). */
  lastResult?: SubmissionResult<string[]> | null;
}) {
  if (offer.kind === "hidden") return null;

  return (
    <section className="card space-y-3 p-5" aria-labelledby="resend-title" data-testid="resend-non-openers">
      <h3 id="resend-title" className="flex items-center gap-2 font-semibold text-slate-900">
        {offer.kind === "offer" ? (
          <MailPlus className="h-5 w-5 text-primary" aria-hidden="true" />
        ) : (
          <MailX className="h-5 w-5 text-slate-400" aria-hidden="true" />
        )}
        Resend to non-openers
      </h3>
      {offer.kind === "nobody" ? (
        <p className="text-sm text-slate-600" data-testid="resend-nobody">
          {offer.reason}
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="resend-audience">
            <span className="font-medium text-slate-900">{nonOpenersText(offer.audience, campaignName)}</span> got it
            and have not opened it.{" "}
            <span className={offer.suppressed > 0 ? "text-amber-700" : undefined} data-testid="resend-reach">
              {audienceReachText(offer)}.
            </span>
          </p>
          <ResendForm campaignId={campaignId} subject={offer.subject} lastResult={lastResult} />
        </>
      )}
    </section>
  );
}

/**
 * The form, made when the offer is there: its default subject is read when it first appears (a
 * form made while the card was hidden, before the campaign completed, would keep an empty one).
 */
function ResendForm({
  campaignId,
  subject,
  lastResult,
}: {
  campaignId: string;
  subject: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const action = `/campaigns/${campaignId}/resend`;
  const [form, fields] = useForm({
    id: `resend-${campaignId}`,
    lastResult: lastResult ?? undefined,
    defaultValue: { subject },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResendNonOpenersSchema }),
    ...LIVE_VALIDATION,
  });
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  return (
    <>
      <FormAlert id={form.errorId} errors={form.errors} />
      <Form method="post" action={action} className="space-y-3" {...getFormProps(form)}>
        <Field
          label="Subject line for the resend"
          required
          hint="A new subject gives it a second chance. The draft copies the message; you can change both before launching. Anyone who opens the original before you launch is left out."
          inputProps={{ ...getInputProps(fields.subject, { type: "text" }), maxLength: 300 }}
          errors={fields.subject.errors}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          <MailPlus className="h-4 w-4" aria-hidden="true" /> Create resend draft
        </button>
      </Form>
    </>
  );
}
