// What the one-time password link (~/services/password-link.server) promises, shared by the
// server and the pages that talk about it.

/** How long a link works. */
export const PASSWORD_LINK_DAYS = 7;

/** What a used, expired or altered link says. */
export const LINK_ENDED =
  "This link has been used or has expired. Ask the person who sent it for a new one (the owner's Users screen makes one).";
