import { distance } from "fastest-levenshtein";

/**
 * Text as KYC Match compares it (docs/kyc-match.md "Normalisation"): Unicode compatibility decomposition (NFKD:
 * full-width letters become ASCII, ligatures split) with every combining mark removed (é → e, ñ → n), lower case,
 * punctuation and symbols turned into spaces (O'Brien → o brien, Smith-Jones → smith jones), whitespace collapsed.
 */
export function normaliseText(value: string): string {
  return value.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ").replace(/\s+/gu, " ").trim();
}

/** An identifier (document number, postal code): normalised text without any separator, `66666666-Q` = `66666666q`. */
export function normaliseIdentifier(value: string): string {
  return normaliseText(value).replace(/ /g, "");
}

/** An e-mail address: trimmed, compared case-insensitively (local part included, as providers treat it). */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Similarity of two normalised strings, 0–100: 100 × (1 − Levenshtein distance / length of the longer), rounded.
 * Two different strings never score 100 (at most 99), so a `false` never carries a perfect score.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 100;
  const longest = Math.max(a.length, b.length);
  const score = Math.round(100 * (1 - distance(a, b) / longest));
  return Math.max(0, Math.min(99, score));
}
