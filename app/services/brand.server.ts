// A tenant's brand (docs/decisions/0043-templates-and-merge-tags.md): the colours, font and logo
// every blocks and Markdown template wears, and the postal address of every message's footer
// (MAIL_POSTAL_ADDRESS when the tenant sets none). A tenant who never set one has the defaults.
// A campaign keeps the brand it was made with in its frozen copy (app/lib/campaign-design.ts), so
// a later change moves no message already sent.
import {
  type Brand,
  BRAND_FONT_KEYS,
  type BrandFont,
  brandOfSettings,
  DEFAULT_BRAND_SETTINGS,
} from "~/lib/template-brand";
import type { BrandRow } from "~/models/brands/rows";
import { brands } from "~/models/brands/store.server";
import type { BrandInput } from "~/schemas/brand";

/** The brand as /api/brand gives it: its settings, and when they were last saved (null: never, the defaults). */
export type BrandDto = BrandInput & { updatedAt: string | null };

const isFont = (value: string): value is BrandFont => (BRAND_FONT_KEYS as string[]).includes(value);

function toDto(row: BrandRow | undefined): BrandDto {
  if (!row) return { ...DEFAULT_BRAND_SETTINGS, updatedAt: null };
  const { userId: _userId, updatedAt, font, ...rest } = row;
  return { ...rest, font: isFont(font) ? font : "system", updatedAt: updatedAt.toISOString() };
}

export async function getBrand(userId: string): Promise<BrandDto> {
  return toDto(await brands.findBrand(userId));
}

/** Keeps the tenant's brand whole (a field left out of the input took its default). */
export async function saveBrand(userId: string, input: BrandInput): Promise<BrandDto> {
  return toDto(await brands.saveBrand(userId, input));
}

/** The brand the tenant's templates wear. */
export async function templateBrandOf(userId: string): Promise<Brand> {
  const { updatedAt: _at, ...settings } = await getBrand(userId);
  return brandOfSettings(settings);
}
