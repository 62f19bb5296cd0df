import { config } from "../../config";
import type { Limit } from "../../security/limits";

/**
 * KYC Match calls per (client, phone number) per 24 hours (`KYC_MATCH_LIMIT_PER_CLIENT_AND_NUMBER`, docs/kyc-match.md
 * "Limits"): bounds how many guesses one relying party may test against one subscriber's record. Keyed on the pair,
 * so one client's calls never refuse another's, nor the same client's calls about other numbers.
 */
export const kycMatchesPerClientAndNumber = (): Limit =>
  ({ name: "kyc-match", limit: config().KYC_MATCH_LIMIT_PER_CLIENT_AND_NUMBER, windowSeconds: 24 * 60 * 60 });
