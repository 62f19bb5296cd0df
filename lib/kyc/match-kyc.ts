import { KYC_ATTRIBUTES, SCORED_ATTRIBUTES, type KycAttribute, type KycClaims, type KycMatchResponse,
  type MatchResult } from "./attributes";
import type { KycRecord } from "./kyc-record";
import { normaliseEmail, normaliseIdentifier, normaliseText, similarity } from "./normalise";

/** One attribute's outcome: a score only beside `false`, and only where the response defines one. */
interface Outcome {
  match: MatchResult;
  score?: number;
}

const NOT_AVAILABLE: Outcome = { match: "not_available" };

/** Below this similarity no score is returned (docs/kyc-match.md "Score"). */
export const SCORE_THRESHOLD = 80;
/** A returned score is the similarity rounded down to a multiple of this. */
export const SCORE_BUCKET = 10;

/**
 * The score a response may carry for a similarity (0–99): none below SCORE_THRESHOLD, else rounded down to a
 * multiple of SCORE_BUCKET (80 or 90). An exact score beside every `false` is an oracle: a caller could change one
 * character at a time and keep what raises it, recovering the record's value (docs/kyc-match.md "Score").
 */
export function coarseScore(similarity: number): number | undefined {
  if (similarity < SCORE_THRESHOLD) return undefined;
  return Math.floor(similarity / SCORE_BUCKET) * SCORE_BUCKET;
}

/**
 * Compares text after normaliseText against one or more accepted forms of the record's value: `true` when equal to
 * any, else `false` with the best similarity, coarsened (coarseScore). No form (the record holds nothing): n/a.
 */
function compareText(claimed: string, forms: (string | null)[]): Outcome {
  const candidates = forms.filter((f): f is string => f !== null).map(normaliseText).filter(Boolean);
  if (candidates.length === 0) return NOT_AVAILABLE;
  const value = normaliseText(claimed);
  if (candidates.includes(value)) return { match: "true" };
  return { match: "false", score: coarseScore(Math.max(...candidates.map((c) => similarity(value, c)))) };
}

function compareExact(claimed: string, held: string | null, normalise: (s: string) => string): Outcome {
  if (held === null || !normalise(held)) return NOT_AVAILABLE;
  return { match: normalise(claimed) === normalise(held) ? "true" : "false" };
}

const joined = (...parts: (string | null)[]) => (parts.every((p) => p !== null) ? parts.join(" ") : null);

/**
 * The complete name's accepted forms: given + middle + family and family + given + middle (with and without the
 * middle names), only when the record holds both a given and a family name (a half-known name is not_available,
 * not a misleading `false`).
 */
function nameForms(record: KycRecord): (string | null)[] {
  const { givenName: g, middleNames: m, familyName: f } = record;
  if (g === null || f === null) return [];
  return [joined(g, m, f), joined(g, f), joined(f, g, m), joined(f, g)];
}

/** The complete address's accepted forms: the street address alone, or followed by the locality and postal code. */
function addressForms(record: KycRecord): (string | null)[] {
  const { streetAddress: s, locality: l, postalCode: p } = record;
  if (s === null) return [];
  return [s, joined(s, l), joined(s, p, l), joined(s, l, p)];
}

/** E-mail: equal or not, never a score (docs/kyc-match.md "Score": an address is an identifier, not a name). */
function compareEmail(claimed: string, held: string | null): Outcome {
  if (held === null) return NOT_AVAILABLE;
  return { match: normaliseEmail(claimed) === normaliseEmail(held) ? "true" : "false" };
}

const FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Dates exactly; a record date that is not a full YYYY-MM-DD (OpenID Connect allows "0000-MM-DD" or "YYYY"): n/a. */
function compareDate(claimed: string, held: string | null): Outcome {
  if (held === null || !FULL_DATE.test(held.trim()) || held.startsWith("0000")) return NOT_AVAILABLE;
  return { match: claimed === held.trim() ? "true" : "false" };
}

/** ISO 3166-1 alpha-2 codes, case-insensitive; a record country that is not a code (a name) is not_available. */
function compareCountry(claimed: string, held: string | null): Outcome {
  if (held === null || !/^[A-Za-z]{2}$/.test(held.trim())) return NOT_AVAILABLE;
  return { match: claimed.trim().toUpperCase() === held.trim().toUpperCase() ? "true" : "false" };
}

/** MALE / FEMALE against the record's OpenID Connect `gender` ("male", "female"); OTHER against any other value. */
function compareGender(claimed: string, held: string | null): Outcome {
  if (held === null) return NOT_AVAILABLE;
  const value = normaliseText(held);
  const recorded = value === "male" || value === "m" ? "MALE" : value === "female" || value === "f" ? "FEMALE" : "OTHER";
  return { match: recorded === claimed ? "true" : "false" };
}

/** One attribute against the record (docs/kyc-match.md, the table of attributes). */
export function matchAttribute(attribute: KycAttribute, claimed: string, record: KycRecord): Outcome {
  switch (attribute) {
    case "idDocument": return compareExact(claimed, record.idDocument, normaliseIdentifier);
    case "name": return compareText(claimed, nameForms(record));
    case "givenName": return compareText(claimed, [record.givenName]);
    case "familyName": return compareText(claimed, [record.familyName]);
    case "middleNames": return compareText(claimed, [record.middleNames]);
    case "address": return compareText(claimed, addressForms(record));
    case "streetName": return compareText(claimed, [record.streetName]);
    case "streetNumber": return compareText(claimed, [record.streetNumber]);
    case "postalCode": return compareExact(claimed, record.postalCode, normaliseIdentifier);
    case "region": return compareText(claimed, [record.region]);
    case "locality": return compareText(claimed, [record.locality]);
    case "country": return compareCountry(claimed, record.country);
    case "birthdate": return compareDate(claimed, record.birthdate);
    case "email": return compareEmail(claimed, record.email);
    case "gender": return compareGender(claimed, record.gender);
    // Not in the subscriber record: nameKanaHankaku, nameKanaZenkaku, familyNameAtBirth, houseNumberExtension.
    default: return NOT_AVAILABLE;
  }
}

/**
 * The KYC_MatchResponse for what the relying party sent: `<attr>Match` for every attribute asked (and only those),
 * `<attr>MatchScore` beside a `false` where the document defines a score. Nothing of the record is returned.
 */
export function matchKyc(claims: KycClaims, record: KycRecord): KycMatchResponse {
  const response: KycMatchResponse = {};
  for (const attribute of KYC_ATTRIBUTES) {
    const claimed = claims[attribute];
    if (claimed === undefined) continue;
    const { match, score } = matchAttribute(attribute, claimed, record);
    response[`${attribute}Match`] = match;
    if (match === "false" && score !== undefined && SCORED_ATTRIBUTES.has(attribute)) {
      response[`${attribute}MatchScore`] = score;
    }
  }
  return response;
}
