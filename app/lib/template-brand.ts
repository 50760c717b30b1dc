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

/** The fonts a brand chooses from: stacks every mail client has a font of, by the name a marketer knows. */
export const BRAND_FONTS = {
  system: { label: "The reader's system font", stack: SYSTEM_FONTS },
  arial: { label: "Arial", stack: "Arial, Helvetica, sans-serif" },
  verdana: { label: "Verdana", stack: "Verdana, Geneva, sans-serif" },
  trebuchet: { label: "Trebuchet MS", stack: "'Trebuchet MS', 'Lucida Grande', sans-serif" },
  georgia: { label: "Georgia", stack: "Georgia, 'Times New Roman', serif" },
  times: { label: "Times New Roman", stack: "'Times New Roman', Times, serif" },
  courier: { label: "Courier New", stack: "'Courier New', Courier, monospace" },
} as const;
export type BrandFont = keyof typeof BRAND_FONTS;
export const BRAND_FONT_KEYS = Object.keys(BRAND_FONTS) as [BrandFont, ...BrandFont[]];

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

/** A brand's settings as the tenant sets them (the font by its name; the postal address of the footer). */
export type BrandSettings = Omit<Brand, "font"> & { font: BrandFont; postalAddress: string };

export const DEFAULT_BRAND_SETTINGS: BrandSettings = { ...DEFAULT_BRAND, font: "system", postalAddress: "" };

/** The brand a template wears, from its settings. */
export function brandOfSettings(settings: BrandSettings): Brand {
  const { postalAddress: _address, font, ...colours } = settings;
  return { ...colours, font: (BRAND_FONTS[font] ?? BRAND_FONTS.system).stack };
}
