import { PATHS } from "../../http/endpoints";
import { CamaraError } from "../camara-error";
import { networkApiOperation } from "../camara-api";

/** POST /kyc-match/v0.3/match: PLACEHOLDER of the foundation commit; its stream replaces it (docs/network-apis.md). */
export const handleKycMatch = networkApiOperation({
  name: "kyc-match.match", path: PATHS.kycMatch, scope: "kyc-match:match", twoLegged: true,
  handle: async () => {
    throw new CamaraError(501, "NOT_IMPLEMENTED", "This functionality is not implemented yet.");
  },
});
