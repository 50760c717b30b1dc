// One button that posts: its hidden fields (an intent, an id) and its words, in a form of its own,
// so it works without JavaScript. Without `action` it posts to the page it is on.
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

export function PostButton({
  fields,
  action,
  className,
  children,
}: {
  fields: Record<string, string>;
  action?: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action} className="inline">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}
