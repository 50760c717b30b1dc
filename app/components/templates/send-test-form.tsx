// "Send a test" under a template's preview: the saved template sent to up to five addresses (the
// signed-in person's own to start with) through the channel campaigns use, its subject marked
// [Test]. A plain form posting to the editor's page: it works without JavaScript, and the answer
// comes back as a message at the top of the page.
import { Form } from "@remix-run/react";
import { Send } from "lucide-react";
import { Field } from "~/components/forms";
import { SubmitButton } from "~/components/submit-button";
import { MAX_TEST_ADDRESSES } from "~/schemas/template";

export function SendTestForm({ defaultTo, busy }: { defaultTo: string; busy: boolean }) {
  return (
    <section aria-labelledby="send-test-title" className="card min-w-0 space-y-3 p-4">
      <h3 id="send-test-title" className="text-lg font-semibold text-slate-900">
        Send a test
      </h3>
      <Form method="post" className="space-y-3" preventScrollReset>
        <input type="hidden" name="intent" value="test" />
        <Field
          label="Send to"
          hint={`Up to ${MAX_TEST_ADDRESSES} addresses, separated by commas. The saved template goes, its subject marked [Test]; it is counted in no figure and its unsubscribe link is an example. Save your changes first.`}
          inputProps={{
            id: "test-to",
            name: "to",
            type: "text",
            defaultValue: defaultTo,
            autoComplete: "email",
            required: true,
          }}
        />
        <SubmitButton busy={busy} busyLabel="Sending..." icon={Send} className="btn-secondary">
          Send test
        </SubmitButton>
      </Form>
    </section>
  );
}
