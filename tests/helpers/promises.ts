// Promise helpers for tests.

/** What `p` was rejected with, or null when it resolved: for asserting on the error a call throws. */
export const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
