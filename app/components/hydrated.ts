// Whether the page's script runs: what needs one (a picker, "Select all") is drawn only then.
import { useEffect, useState } from "react";

/** False on the server's page and until React takes over in the browser, true after. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
