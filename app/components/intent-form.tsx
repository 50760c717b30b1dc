// A form of a page that posts one intent to the page's action (the action tells the page's forms
// apart by `intent`), with Conform's form props: the hidden intent first, then the form's own
// inputs. Without `action` it posts to the page it is on. usePostingIntent() says whether it is
// posting now.
import { type FormMetadata, getFormProps } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode, Ref } from "react";

export function IntentForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  action,
  preventScrollReset,
  formRef,
  className,
  children,
}: {
  /** The form's useForm(). */
  form: FormMetadata<Schema, string[]>;
  /** What the action is asked to do: "tag", "add". */
  intent: string;
  action?: string;
  /** Keeps the page where it is scrolled to after the post. */
  preventScrollReset?: boolean;
  formRef?: Ref<HTMLFormElement>;
  className: string;
  children: ReactNode;
}) {
  return (
    <Form
      method="post"
      action={action}
      ref={formRef}
      preventScrollReset={preventScrollReset}
      className={className}
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

/** Whether the page is posting the form of this intent now (its submit button says so meanwhile). */
export function usePostingIntent(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}
