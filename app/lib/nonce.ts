// The Content-Security-Policy nonce of the page being rendered: made per request by the server
// entry (app/entry.server.tsx), which sends it in the policy and hands it to the inline scripts
// (<Scripts>, <ScrollRestoration>) through this context. In the browser it is empty: the scripts
// have run by then, and browsers hide a nonce attribute from the page anyway.
import { createContext, createElement, type ReactNode, useContext } from "react";

const NonceContext = createContext("");

export function NonceProvider({ nonce, children }: { nonce: string; children: ReactNode }) {
  return createElement(NonceContext.Provider, { value: nonce }, children);
}

export const useNonce = () => useContext(NonceContext);

/** The policy of an HTML page: only our own scripts and those carrying this request's nonce. */
export function contentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Style attributes (toasts, progress bars) are inline; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // Profile pictures come from the sign-in provider.
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    // Vite's hot reload talks over a websocket on the same port in development.
    development ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
