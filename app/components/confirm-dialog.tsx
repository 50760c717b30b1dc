// A confirmation dialog driven by the address (e.g. ?delete=<id>), so it works with and without
// JavaScript: with JS it is a modal; without, the same content renders as a plain overlay.
import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";

export type ConfirmDialogProps = {
  open: boolean;
  title: string;
  message: React.ReactNode;
  /** Where Cancel (and closing) goes: usually the current address without the dialog's parameter. */
  cancelHref: string;
  /** Where the confirming form posts. */
  action: string;
  /** Hidden fields sent with the confirming form (e.g. { intent: "delete", id }). */
  fields: Record<string, string>;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
};

export function ConfirmDialog(props: ConfirmDialogProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const close = () => navigate(props.cancelHref, { replace: true, preventScrollReset: true });
  const body = (Wrapper: "js" | "nojs") => (
    <>
      {Wrapper === "js" ? (
        <DialogTitle className="text-lg font-semibold text-slate-900">{props.title}</DialogTitle>
      ) : (
        <h2 className="text-lg font-semibold text-slate-900">{props.title}</h2>
      )}
      <div className="mt-2 text-sm text-slate-600">{props.message}</div>
      <Form method="post" action={props.action} className="mt-6 flex justify-end gap-2">
        {Object.entries(props.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Link to={props.cancelHref} replace preventScrollReset className="btn-secondary">
          {props.cancelLabel ?? "Cancel"}
        </Link>
        <button type="submit" className={props.destructive === false ? "btn-primary" : "btn-danger"} disabled={busy}>
          {props.confirmLabel ?? "Delete"}
        </button>
      </Form>
    </>
  );
  if (!props.open) return null;
  return (
    <>
      <noscript>
        <div
          role="dialog"
          aria-label={props.title}
          className="fixed inset-0 z-50 flex items-center justify-center bg-black/30 p-4"
        >
          <div className="card w-full max-w-md p-6">{body("nojs")}</div>
        </div>
      </noscript>
      <Dialog open onClose={close} className="relative z-50">
        <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="card w-full max-w-md p-6">{body("js")}</DialogPanel>
        </div>
      </Dialog>
    </>
  );
}
