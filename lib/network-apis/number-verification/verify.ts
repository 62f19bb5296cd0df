import { PATHS } from "../../http/endpoints";
import { CamaraError } from "../camara-error";
import { networkApiOperation } from "../camara-api";

/** POST /number-verification/v2/verify: PLACEHOLDER of the foundation commit; its stream replaces it (docs/network-apis.md). */
export const handleNumberVerificationVerify = networkApiOperation({
  name: "number-verification.verify", path: PATHS.numberVerificationVerify, scope: "number-verification:verify", twoLegged: false,
  handle: async () => {
    throw new CamaraError(501, "NOT_IMPLEMENTED", "This functionality is not implemented yet.");
  },
});
