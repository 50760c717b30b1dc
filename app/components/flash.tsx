// Shows the one-time message an action left in the session: as a toast or as a snackbar.
import { useEffect } from "react";
import { Toaster, toast } from "sonner";
import type { FlashMessage } from "~/lib/flash";
import { SNACKBAR_MS, SNACKBAR_PLACEMENT, useSnackbar } from "~/components/snackbar";

/** Toasts hide after this long (the wizard's own toasts set a shorter time). */
export const TOAST_MS = 5000;

/**
 * The toasts (docs/rules.md#notices): at the bottom right, where a page keeps none of its own
 * buttons at rest (under the top bar on the right stand the list's Add button and the campaign's
 * Pause, Cancel and Delete); on a phone (below 600 px, sonner's own breakpoint) across the bottom of
 * the screen less 16 px each side. The top bar is never covered.
 */
export function AppToaster() {
  return <Toaster position="bottom-right" duration={TOAST_MS} richColors closeButton />;
}

// Without JavaScript the flash is a plain banner where the toast or the snackbar would stand, and
// it goes the same way after the same time: a CSS animation hides it (no script needed).
const HIDE_KEYFRAMES = "@keyframes crm-flash-out{to{visibility:hidden}}";
/** Above the page's bottom navigation, which only pages without JavaScript show on a phone. */
const TOAST_BANNER_PLACEMENT = "fixed inset-x-4 bottom-16 z-50 sm:inset-x-auto sm:bottom-6 sm:right-6 sm:max-w-sm";

export function FlashMessages({ flash }: { flash: FlashMessage | null }) {
  const showSnackbar = useSnackbar();
  useEffect(() => {
    if (!flash) return;
    if (flash.kind === "snackbar") showSnackbar(flash.message, flash.type);
    else toast[flash.type](flash.message);
  }, [flash, showSnackbar]);
  if (!flash) return null;
  const snackbar = flash.kind === "snackbar";
  return (
    <noscript>
      <style>{HIDE_KEYFRAMES}</style>
      <div
        role="status"
        data-testid="flash-banner"
        className={`${snackbar ? SNACKBAR_PLACEMENT : TOAST_BANNER_PLACEMENT} rounded-lg bg-slate-800 px-4 py-3 text-sm text-white shadow-lg`}
        style={{ animation: `crm-flash-out 0s linear ${snackbar ? SNACKBAR_MS : TOAST_MS}ms forwards` }}
      >
        {flash.message}
      </div>
    </noscript>
  );
}
