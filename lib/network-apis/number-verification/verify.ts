import { createHash } from "node:crypto";
import { PATHS } from "../../http/endpoints";
import { camaraErrors } from "../camara-error";
import { CAMARA_PHONE_NUMBER, networkApiOperation } from "../camara-api";
import { spendNetworkAuthenticatedToken } from "./network-authenticated";

/** The /verify body: exactly one of the two forms (NumberVerificationRequestBody, minProperties = maxProperties = 1). */
export type VerifyBody = { phoneNumber: string } | { hashedPhoneNumber: string };

const HASHED = /^[a-fA-F0-9]{64}$/;

/** Validates the body as the published schema does; anything else is 400 INVALID_ARGUMENT. */
export function parseVerifyBody(json: unknown): VerifyBody {
  const body = json as Record<string, unknown>;
  const keys = Object.keys(body);
  const { phoneNumber, hashedPhoneNumber } = body;
  if (keys.length !== 1 || (phoneNumber === undefined && hashedPhoneNumber === undefined)) {
    throw camaraErrors.invalidArgument("Exactly one of phoneNumber or hashedPhoneNumber must be provided, and nothing else.");
  }
  if (phoneNumber !== undefined) {
    if (typeof phoneNumber !== "string" || !CAMARA_PHONE_NUMBER.test(phoneNumber)) {
      throw camaraErrors.invalidArgument("phoneNumber must be an E.164 number with a leading +.");
    }
    return { phoneNumber };
  }
  if (typeof hashedPhoneNumber !== "string" || !HASHED.test(hashedPhoneNumber)) {
    throw camaraErrors.invalidArgument("hashedPhoneNumber must be the SHA-256 of the E.164 number (with +), in hexadecimal.");
  }
  return { hashedPhoneNumber };
}

/** SHA-256, lowercase hexadecimal, of `+<msisdn>` (what hashedPhoneNumber carries). */
export function hashedPhoneNumberOf(msisdn: string): string {
  return createHash("sha256").update(`+${msisdn}`).digest("hex");
}

/**
 * POST /number-verification/v2/verify (CAMARA Number Verification 2.1.0, docs/number-verification.md): whether the
 * number the relying party sends (plain, or hashed: compared case-insensitively) is the one of the subscriber the
 * network authenticated for the token. A different number is `false`, not an error. The token is spent.
 */
export const handleNumberVerificationVerify = networkApiOperation({
  name: "number-verification.verify", path: PATHS.numberVerificationVerify, scope: "number-verification:verify",
  twoLegged: false,
  body: parseVerifyBody,
  handle: async ({ caller, body }) => {
    const msisdn = await spendNetworkAuthenticatedToken(caller);
    const verified = "phoneNumber" in body
      ? body.phoneNumber === `+${msisdn}`
      : body.hashedPhoneNumber.toLowerCase() === hashedPhoneNumberOf(msisdn);
    return { devicePhoneNumberVerified: verified };
  },
});
