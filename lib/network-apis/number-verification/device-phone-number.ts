import { PATHS } from "../../http/endpoints";
import { networkApiOperation } from "../camara-api";
import { spendNetworkAuthenticatedToken } from "./network-authenticated";

/**
 * GET /number-verification/v2/device-phone-number (CAMARA Number Verification 2.1.0, docs/number-verification.md):
 * the number of the subscriber the network authenticated for the token, in E.164 with `+`. The token is spent.
 */
export const handleDevicePhoneNumber = networkApiOperation({
  name: "number-verification.device-phone-number", path: PATHS.numberVerificationDevicePhoneNumber,
  scope: "number-verification:device-phone-number:read", twoLegged: false,
  handle: async ({ caller }) => ({ devicePhoneNumber: `+${await spendNetworkAuthenticatedToken(caller)}` }),
});
