// The one way a form action answers when it does not redirect. Actions parse with Conform's
// parseWithZod (the same zod schema the browser checks with) and answer with submission.reply(),
// which the form's useForm reads as its lastResult: errors under their fields, the typed values kept.
import type { Submission } from "@conform-to/react";
import { data } from "@remix-run/node";
import { ApiError } from "~/lib/api.server";

/**
 * A submission that is not ready to save. An intent (a row added or removed, without JavaScript)
 * answers 200 with the new form state; invalid input answers 400, with `message` above the form
 * when one is given.
 */
export function replyUnfinished<Output>(submission: Submission<Output>, message?: string) {
  const invalid = submission.status === "error";
  return data(submission.reply(invalid && message ? { formErrors: [message] } : undefined), {
    status: invalid ? 400 : 200,
  });
}

/**
 * A save the service refused on purpose (an ApiError: a duplicate e-mail, a record gone): its field
 * messages under the fields, `message` above the form, the error's status. Any other error is a
 * fault and goes on to the error boundary and the server log.
 */
export function replyRefused<Output>(submission: Submission<Output>, error: unknown, message: string) {
  if (!(error instanceof ApiError)) throw error;
  const fieldErrors = Object.fromEntries(Object.entries(error.fields ?? {}).map(([name, text]) => [name, [text]]));
  return data(submission.reply({ formErrors: [message], fieldErrors }), { status: error.status });
}
