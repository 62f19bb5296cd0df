/**
 * Colour arithmetic for the operator's theme (WCAG 2.2 §1.4.3 contrast): hex parsing, relative
 * luminance, contrast ratio, and the text colour that reads on a given background.
 */

/** `#rgb` or `#rrggbb`, case-insensitive. */
export const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** WCAG AA for normal text (buttons and links here are normal-size text). */
export const AA_TEXT = 4.5;

/** The neutral surfaces the brand colour sits on (kept in line with app/globals.css). */
export const LIGHT_SURFACE = "#ffffff";
export const DARK_SURFACE = "#0f172a";

type Rgb = [number, number, number];

/** `#AbC` -> `#aabbcc`. The caller has checked {@link HEX_COLOUR}. */
export function normaliseHex(hex: string): string {
  const h = hex.slice(1).toLowerCase();
  return `#${h.length === 3 ? [...h].map((c) => c + c).join("") : h}`;
}

function rgb(hex: string): Rgb {
  const h = normaliseHex(hex);
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, "0")).join("")}`;
}

/** WCAG relative luminance (sRGB). */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text colour for `background`: white or the near-black ink, whichever reads better; black when
 * neither reaches 4.5:1 (white or black always does: the better of the two is at least 4.58:1).
 */
export function textOn(background: string): string {
  const best = contrast("#ffffff", background) >= contrast("#0f172a", background) ? "#ffffff" : "#0f172a";
  if (contrast(best, background) >= AA_TEXT) return best;
  return contrast("#ffffff", background) >= contrast("#000000", background) ? "#ffffff" : "#000000";
}

/** `a` mixed with `b` (weight of `b`, 0 to 1). */
export function mix(a: string, b: string, weight: number): string {
  const [x, y] = [rgb(a), rgb(b)];
  return toHex([0, 1, 2].map((i) => x[i]! + (y[i]! - x[i]!) * weight) as Rgb);
}

/**
 * The colour moved towards `towards` (white or black) in 5 % steps until it reaches `ratio` against
 * `surface`; null when even `towards` itself does not.
 */
export function adjustForContrast(colour: string, surface: string, towards: string, ratio = AA_TEXT): string | null {
  for (let step = 0; step <= 20; step++) {
    const c = mix(colour, towards, step / 20);
    if (contrast(c, surface) >= ratio) return c;
  }
  return null;
}

/** The hover shade of a button: a little further from its text colour, so the contrast only grows. */
export function hoverShade(background: string): string {
  return mix(background, textOn(background) === "#ffffff" ? "#000000" : "#ffffff", 0.15);
}
