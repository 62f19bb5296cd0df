import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { config } from "../config";
import { adjustForContrast, DARK_SURFACE, hoverShade, textOn } from "./colour";

/**
 * The operator's brand as configured (docs/configuration.md "Branding"): its name per language, an
 * optional logo served by us at {@link LOGO_PATH}, a support link, and the primary colour for light
 * and dark schemes. Nothing configured: the neutral product look and the catalogue's name.
 */
export const LOGO_PATH = "/brand/logo";
export const THEME_PATH = "/brand/theme.css";

/** The configured name for a language (BRAND_NAME_FR for French, else BRAND_NAME), or undefined. */
export function configuredBrandName(lang: string): string | undefined {
  const c = config();
  return (lang === "fr" ? c.BRAND_NAME_FR : undefined) ?? c.BRAND_NAME;
}

/** The name shown on the screens: the configured one, else the catalogue's neutral `brand` text. */
export function brandName(t: { lang: string; brand: string }): string {
  return configuredBrandName(t.lang) ?? t.brand;
}

/** The support link (https: or mailto:), or undefined. */
export function supportUrl(): string | undefined {
  return config().BRAND_SUPPORT_URL;
}

/** The logo's address on this service and its media type, or undefined when none is configured. */
export function brandLogo(): { src: string; type: string } | undefined {
  const file = config().BRAND_LOGO;
  if (!file) return undefined;
  return { src: `${LOGO_PATH}?v=${logo().version}`, type: logo().type };
}

let logoCache: { bytes: Buffer; type: string; version: string } | undefined;

/** The configured logo file, read once (the configuration checked that it exists and is small). */
export function logo(): { bytes: Buffer; type: string; version: string } {
  const file = config().BRAND_LOGO;
  if (!file) throw new Error("no BRAND_LOGO configured");
  if (!logoCache) {
    const bytes = readFileSync(file);
    logoCache = { bytes, type: file.toLowerCase().endsWith(".svg") ? "image/svg+xml" : "image/png",
      version: createHash("sha256").update(bytes).digest("base64url").slice(0, 10) };
  }
  return logoCache;
}

export interface BrandColours { brand: string; brandHover: string; onBrand: string; ink: string }

/**
 * The theme's colours for each scheme, or null when BRAND_PRIMARY is not set (app/globals.css then
 * holds the neutral defaults). The light colour was checked against white by the configuration;
 * without BRAND_PRIMARY_DARK the dark one is the light one lightened until it reads on the dark surface.
 */
export function brandColours(): { light: BrandColours; dark: BrandColours } | null {
  const c = config();
  if (!c.BRAND_PRIMARY) return null;
  const dark = c.BRAND_PRIMARY_DARK ?? adjustForContrast(c.BRAND_PRIMARY, DARK_SURFACE, "#ffffff") ?? "#ffffff";
  const of = (brand: string): BrandColours => ({ brand, brandHover: hoverShade(brand), onBrand: textOn(brand), ink: brand });
  return { light: of(c.BRAND_PRIMARY), dark: of(dark) };
}

/** The custom properties of app/globals.css set to the brand's colours (both schemes), or "". */
export function themeCss(): string {
  const colours = brandColours();
  if (!colours) return "";
  const vars = (b: BrandColours) => `--brand:${b.brand};--brand-hover:${b.brandHover};--on-brand:${b.onBrand};`
    + `--brand-ink:${b.ink};--focus:${b.brand}`;
  // `:root:root` outranks the defaults' `:root` whatever order the stylesheets load in.
  // The handset app's `.brand-light` area keeps the light colours in both schemes.
  return `:root:root,.brand-light.brand-light{${vars(colours.light)}}\n`
    + `@media (prefers-color-scheme: dark){:root:root{${vars(colours.dark)}}}\n`;
}

/** The address of the theme stylesheet (versioned by its content), or undefined without brand colours. */
export function themeHref(): string | undefined {
  const css = themeCss();
  return css ? `${THEME_PATH}?v=${createHash("sha256").update(css).digest("base64url").slice(0, 10)}` : undefined;
}
