import { PATHS } from "../../http/endpoints";
import { CamaraError } from "../camara-error";
import { networkApiOperation } from "../camara-api";

/** POST /sim-swap/v2/check: PLACEHOLDER of the foundation commit; its stream replaces it (docs/network-apis.md). */
export const handleSimSwapCheck = networkApiOperation({
  name: "sim-swap.check", path: PATHS.simSwapCheck, scope: "sim-swap:check", twoLegged: true,
  handle: async () => {
    throw new CamaraError(501, "NOT_IMPLEMENTED", "This functionality is not implemented yet.");
  },
});
