// What a permanent or temporary mail server answer says about the address, one rule for the
// answer at send time (the SMTP channel) and for a report that comes later (the bounce mailbox):
// an enhanced status code of class 5.1 (RFC 3463: "addressing status": no such mailbox, no such
// domain) or, without one, the reply codes 550, 551 and 553 mean the address does not work, a hard
// bounce that suppresses it. Any other failure (a full mailbox, a message refused for its content
// or by policy: 5.7.x, 4.x.x) is about this message, not the address: a soft bounce, which counts
// toward the soft-bounce policy (docs/rules.md#delivery-status).

/** Reply codes that, without an enhanced status code, say the mailbox does not exist. */
const NO_SUCH_MAILBOX = new Set([550, 551, 553]);

/**
 * "hard" when the answer says the address does not work, "soft" for any other failure, null when
 * it is no failure at all (2.x.x, or neither a 4/5 enhanced code nor a 4xx/5xx reply code).
 */
export function bounceKind(enhanced: string | undefined, reply: number | undefined): "hard" | "soft" | null {
  const e = enhanced ? /^([245])\.(\d{1,3})\.\d{1,3}$/.exec(enhanced) : null;
  if (e) {
    if (e[1] === "2") return null;
    return e[1] === "5" && e[2] === "1" ? "hard" : "soft";
  }
  if (reply === undefined || reply < 400 || reply > 599) return null;
  return NO_SUCH_MAILBOX.has(reply) ? "hard" : "soft";
}
