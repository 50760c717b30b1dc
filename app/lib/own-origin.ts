// Which origins are this server's own pages, for the cross-site check on writes (CSRF): the
// addresses come from the settings (Env.ownOrigins: PUBLIC_URL's origin, or every loopback spelling
// of the port on a local run without PUBLIC_URL), never from the request's own Host.

/** The origin of an absolute http(s) address (an Origin header or a Referer), or null. */
export function originOf(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

/** Whether a write from this origin comes from one of this server's own pages. */
export function isOwnOrigin(origin: string | null, ownOrigins: readonly string[]): boolean {
  return origin !== null && ownOrigins.includes(origin);
}

/**
 * What a refused write says: where it came from and which address to open instead, so a person who
 * reached the server under another name (127.0.0.1 for localhost) knows what to do.
 */
export function crossOriginMessage(sentFrom: string | null, publicUrl: string): string {
  const from = sentFrom ? ` (${sentFrom})` : "";
  return `This form was sent from another site${from}, so it was refused. This server's address is ${publicUrl}: open the page there and try again.`;
}
