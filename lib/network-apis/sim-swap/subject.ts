import type { ApiCaller } from "../camara-api";
import { CAMARA_PHONE_NUMBER } from "../camara-api";
import { camaraErrors } from "../camara-error";

/**
 * The number a SIM Swap request is about, by the published definition's own rule (sim-swap.yaml 2.1.0,
 * "Identifying the phone number from the access token"): with a three-legged token the number is the token's
 * subscriber and `phoneNumber` MUST NOT be sent (422 UNNECESSARY_IDENTIFIER, even when it is the same number);
 * with a two-legged token it MUST be sent (422 MISSING_IDENTIFIER). The SIM Swap definition lists neither 403
 * INVALID_TOKEN_CONTEXT nor accepts the same number, so the generic subjectNumber is not used here.
 * Returns E.164 digits without `+`.
 */
export function simSwapSubject(caller: ApiCaller, phoneNumber: string | undefined): string {
  if (caller.subscriber) {
    if (phoneNumber !== undefined) throw camaraErrors.unnecessaryIdentifier();
    return caller.subscriber.msisdn;
  }
  if (phoneNumber === undefined) throw camaraErrors.missingIdentifier();
  return phoneNumber.slice(1);
}

/** `phoneNumber` of a request body: absent, or E.164 with `+` (else 400 INVALID_ARGUMENT). */
export function phoneNumberOf(body: Record<string, unknown>): string | undefined {
  const value = body.phoneNumber;
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !CAMARA_PHONE_NUMBER.test(value)) {
    throw camaraErrors.invalidArgument("phoneNumber must be an E.164 number with a leading +.");
  }
  return value;
}
