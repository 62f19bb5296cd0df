import { PATHS } from "../../http/endpoints";
import { CamaraError } from "../camara-error";
import { networkApiOperation } from "../camara-api";

/** POST /sim-swap/v2/retrieve-date: PLACEHOLDER of the foundation commit; its stream replaces it (docs/network-apis.md). */
export const handleSimSwapRetrieveDate = networkApiOperation({
  name: "sim-swap.retrieve-date", path: PATHS.simSwapRetrieveDate, scope: "sim-swap:retrieve-date", twoLegged: true,
  handle: async () => {
    throw new CamaraError(501, "NOT_IMPLEMENTED", "This functionality is not implemented yet.");
  },
});
