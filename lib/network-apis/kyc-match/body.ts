import { KYC_ATTRIBUTES, KYC_GENDERS, type KycClaims } from "../../kyc/attributes";
import { CamaraError, camaraErrors } from "../camara-error";

/** The longest attribute value accepted (the similarity score is quadratic in the lengths). */
export const MAX_ATTRIBUTE_LENGTH = 256;

/** KYC_MatchRequestBody, validated: the subject's `phoneNumber` (checked by subjectNumber) and the claims. */
export interface KycMatchBody {
  phoneNumber: unknown;
  claims: KycClaims;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 5322 addr-spec as far as a match needs: one @, no spaces, a dotted domain (ajv-formats' `email` accepts it). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * The request body of POST /match (lib/network-apis/openapi/kyc-match.yaml): each attribute, when present, a
 * non-empty string of at most MAX_ATTRIBUTE_LENGTH characters, `birthdate` a calendar date (YYYY-MM-DD), `email`
 * an address, `gender` MALE / FEMALE / OTHER, else 400 INVALID_ARGUMENT; members the document does not define are
 * ignored. No attribute at all (a `phoneNumber` alone) is 400 KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION, as the
 * operation's description says.
 */
export function parseKycMatchBody(json: unknown): KycMatchBody {
  const body = json as Record<string, unknown>;
  const claims: KycClaims = {};
  for (const attribute of KYC_ATTRIBUTES) {
    const value = body[attribute];
    if (value === undefined) continue;
    if (typeof value !== "string" || !value.trim()) {
      throw camaraErrors.invalidArgument(`${attribute} must be a non-empty string.`);
    }
    if (value.length > MAX_ATTRIBUTE_LENGTH) {
      throw camaraErrors.invalidArgument(`${attribute} is longer than ${MAX_ATTRIBUTE_LENGTH} characters.`);
    }
    if (attribute === "birthdate" && !isCalendarDate(value)) {
      throw camaraErrors.invalidArgument("birthdate must be a date (YYYY-MM-DD).");
    }
    if (attribute === "email" && !EMAIL.test(value)) throw camaraErrors.invalidArgument("email must be an e-mail address.");
    if (attribute === "gender" && !(KYC_GENDERS as readonly string[]).includes(value)) {
      throw camaraErrors.invalidArgument("gender must be MALE, FEMALE or OTHER.");
    }
    claims[attribute] = value;
  }
  if (Object.keys(claims).length === 0) {
    throw new CamaraError(400, "KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION",
      "At least one attribute besides phoneNumber must be provided.");
  }
  return { phoneNumber: body.phoneNumber, claims };
}
