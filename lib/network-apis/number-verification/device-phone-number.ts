import { PATHS } from "../../http/endpoints";
import { CamaraError } from "../camara-error";
import { networkApiOperation } from "../camara-api";

/** GET /number-verification/v2/device-phone-number: PLACEHOLDER of the foundation commit; its stream replaces it (docs/network-apis.md). */
export const handleDevicePhoneNumber = networkApiOperation({
  name: "number-verification.device-phone-number", path: PATHS.numberVerificationDevicePhoneNumber, scope: "number-verification:device-phone-number:read", twoLegged: false,
  handle: async () => {
    throw new CamaraError(501, "NOT_IMPLEMENTED", "This functionality is not implemented yet.");
  },
});
