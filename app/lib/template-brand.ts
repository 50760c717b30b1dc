// A tenant's brand as its templates wear it: colours, the font and the logo on top of every
// blocks template (docs/decisions/0043-templates-and-merge-tags.md). Isomorphic: the editor's
// preview and the server's render read the same values.

export type Brand = {
  /** The page around the message. */
  background: string;
  textColor: string;
  linkColor: string;
  buttonColor: string;
  buttonTextColor: string;
  /** A CSS font stack; mail clients without the first font take the next. */
  font: string;
  /** An absolute http(s) address of the logo, or "" for none. */
  logoUrl: string;
  logoAlt: string;
};

/** The system fonts of each platform, then Arial: what reads well everywhere without a web font. */
export const SYSTEM_FONTS =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Noto Sans', 'Helvetica Neue', Arial, sans-serif";

export const DEFAULT_BRAND: Brand = {
  background: "#f3f4f6",
  textColor: "#1f2937",
  linkColor: "#2563eb",
  buttonColor: "#2563eb",
  buttonTextColor: "#ffffff",
  font: SYSTEM_FONTS,
  logoUrl: "",
  logoAlt: "",
};
