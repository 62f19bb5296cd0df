import { PATHS } from "../../http/endpoints";
import { logger } from "../../log";
import { hitRateLimit } from "../../security/hit-rate-limit";
import { findKycRecord } from "../../kyc/find-kyc-record";
import { matchKyc } from "../../kyc/match-kyc";
import { camaraErrors } from "../camara-error";
import { networkApiOperation, subjectNumber } from "../camara-api";
import { parseKycMatchBody } from "./body";
import { kycMatchesPerClientAndNumber } from "./limit";

/**
 * POST /kyc-match/v0.3/match (CAMARA KYC Match 0.3.0, docs/kyc-match.md): compares the attributes the relying party
 * sends with the subscriber's record and answers, per attribute asked, `true` / `false` / `not_available` (plus a
 * similarity score beside some `false`s); the record itself is never returned. Three-legged: the token's
 * subscriber (a differing phoneNumber is 403 INVALID_TOKEN_CONTEXT); two-legged: the body's phoneNumber
 * (none: 422 MISSING_IDENTIFIER); a number that is no active subscriber's: 404 IDENTIFIER_NOT_FOUND. Calls per
 * (client, number) are limited (kycMatchesPerClientAndNumber; over it: 429 TOO_MANY_REQUESTS with Retry-After),
 * counted before the record is looked up, so the limit answers alike for a number with no subscriber.
 * Logged: the client, the purpose and the attribute names asked; never a value, a result or the number.
 */
export const handleKycMatch = networkApiOperation({
  name: "kyc-match.match", path: PATHS.kycMatch, scope: "kyc-match:match", twoLegged: true,
  body: parseKycMatchBody,
  handle: async ({ caller, body, requestId }) => {
    const msisdn = subjectNumber(caller, body.phoneNumber);
    const subject = `${caller.clientId}\n${msisdn}`; // hashed in the key (no number at rest)
    const calls = await hitRateLimit({ limit: kycMatchesPerClientAndNumber(), subject });
    if (!calls.allowed) {
      logger.info({ requestId, clientId: caller.clientId }, "kyc match refused: limit per client and number");
      throw camaraErrors.tooManyRequests(calls.retryAfter);
    }
    const record = await findKycRecord({ msisdn, subscriber: caller.subscriber });
    if (!record) {
      throw camaraErrors.identifierNotFound("The phone number provided is not associated with a customer account");
    }
    logger.info({ requestId, clientId: caller.clientId, purpose: caller.purpose,
      threeLegged: caller.subscriber !== null, attributes: Object.keys(body.claims) }, "kyc match");
    return matchKyc(body.claims, record);
  },
});
