// A tenant's brand as the Brand screen and PUT /api/brand take it (docs/decisions/0043-templates-and-merge-tags.md):
// five colours, a font by its name, a logo (an absolute http(s) address, an uploaded image's
// included, or none) with its alt text, and the postal address of the messages' footer. A field left
// out takes its default.
import { z } from "zod";
import { BRAND_FONT_KEYS, BRAND_FONTS, DEFAULT_BRAND_SETTINGS } from "~/lib/template-brand";
import { singleLine } from "~/schemas/text";

export const MAX_POSTAL_ADDRESS = 300;
const MAX_LOGO_URL = 2_000;
const MAX_LOGO_ALT = 200;

const colour = (label: string, fallback: string) =>
  z
    .string({ message: `${label} must be a colour like #1f2937` })
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, `${label} must be a colour like #1f2937`)
    .transform((value) => value.toLowerCase())
    .default(fallback);

export const BrandInputSchema = z.strictObject({
  background: colour("The background colour", DEFAULT_BRAND_SETTINGS.background),
  textColor: colour("The text colour", DEFAULT_BRAND_SETTINGS.textColor),
  linkColor: colour("The link colour", DEFAULT_BRAND_SETTINGS.linkColor),
  buttonColor: colour("The button colour", DEFAULT_BRAND_SETTINGS.buttonColor),
  buttonTextColor: colour("The button text colour", DEFAULT_BRAND_SETTINGS.buttonTextColor),
  font: z
    .enum(BRAND_FONT_KEYS, {
      message: `The font must be one of: ${BRAND_FONT_KEYS.map((key) => `${key} (${BRAND_FONTS[key].label})`).join(", ")}`,
    })
    .default("system"),
  logoUrl: z
    .string({ message: "The logo's address must be text" })
    .trim()
    .max(MAX_LOGO_URL, `The logo's address must be at most ${MAX_LOGO_URL} characters`)
    .refine(
      (value) => value === "" || /^https?:\/\/[^\s/]+\.?[^\s]*$/i.test(value),
      "The logo's address must be an absolute http(s) address, like https://shop.example/logo.png, or empty",
    )
    .default(""),
  logoAlt: singleLine(z.string({ message: "The logo's alt text must be text" }).trim(), "The logo's alt text")
    .max(MAX_LOGO_ALT, `The logo's alt text must be at most ${MAX_LOGO_ALT} characters`)
    .default(""),
  postalAddress: singleLine(z.string({ message: "The postal address must be text" }).trim(), "The postal address")
    .max(MAX_POSTAL_ADDRESS, `The postal address must be at most ${MAX_POSTAL_ADDRESS} characters`)
    .default(""),
});
export type BrandInput = z.infer<typeof BrandInputSchema>;
