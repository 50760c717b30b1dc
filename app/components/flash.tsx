// Shows the one-time message an action left in the session: as a toast or as a snackbar.
import { useEffect } from "react";
import { toast } from "sonner";
import type { FlashMessage } from "~/lib/flash";
import { useSnackbar } from "~/components/snackbar";

export function FlashMessages({ flash }: { flash: FlashMessage | null }) {
  const showSnackbar = useSnackbar();
  useEffect(() => {
    if (!flash) return;
    if (flash.kind === "snackbar") showSnackbar(flash.message, flash.type);
    else toast[flash.type](flash.message);
  }, [flash, showSnackbar]);
  // Without JavaScript the message still shows, as a plain banner.
  if (!flash) return null;
  return (
    <noscript>
      <div
        role="status"
        className="fixed left-1/2 top-4 z-50 -translate-x-1/2 rounded-lg bg-slate-800 px-4 py-3 text-sm text-white"
      >
        {flash.message}
      </div>
    </noscript>
  );
}
