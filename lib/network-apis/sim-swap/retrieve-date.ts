import { PATHS } from "../../http/endpoints";
import { simSwapStatus } from "../../sim-swap/latest-sim-swap";
import { camaraErrors } from "../camara-error";
import { networkApiOperation } from "../camara-api";
import { phoneNumberOf, simSwapSubject } from "./subject";

/**
 * POST /sim-swap/v2/retrieve-date (sim-swap.yaml 2.1.0 retrieveSimSwapDate): `{latestSimChange}`, the latest SIM
 * change recorded for the number as an RFC 3339 UTC date-time, or null when none is recorded. We keep every
 * recorded change (no monitoring window) and do not know SIM activation dates, so `monitoredPeriod` is not sent
 * (docs/sim-swap.md). Identifier rules and 404 as for check.
 */
export const handleSimSwapRetrieveDate = networkApiOperation({
  name: "sim-swap.retrieve-date", path: PATHS.simSwapRetrieveDate, scope: "sim-swap:retrieve-date", twoLegged: true,
  body: (json) => ({ phoneNumber: phoneNumberOf(json as Record<string, unknown>) }),
  handle: async ({ caller, body }) => {
    const msisdn = simSwapSubject(caller, body.phoneNumber);
    const { known, latest } = await simSwapStatus({ msisdn });
    if (!known) throw camaraErrors.identifierNotFound("The phone number is not known.");
    return { latestSimChange: latest ? latest.toISOString() : null };
  },
});
