import { PATHS } from "../../http/endpoints";
import { simSwapStatus } from "../../sim-swap/latest-sim-swap";
import { camaraErrors } from "../camara-error";
import { networkApiOperation } from "../camara-api";
import { phoneNumberOf, simSwapSubject } from "./subject";

/** sim-swap.yaml CreateCheckSimSwap.maxAge: hours, 1..2400, default 240. */
export const MAX_AGE = { min: 1, max: 2400, default: 240 } as const;

interface CheckBody {
  phoneNumber: string | undefined;
  maxAge: number;
}

function checkBody(json: unknown): CheckBody {
  const body = json as Record<string, unknown>;
  const phoneNumber = phoneNumberOf(body);
  const maxAge = body.maxAge === undefined ? MAX_AGE.default : body.maxAge;
  if (typeof maxAge !== "number" || !Number.isInteger(maxAge)) {
    throw camaraErrors.invalidArgument("maxAge must be an integer number of hours.");
  }
  if (maxAge < MAX_AGE.min || maxAge > MAX_AGE.max) {
    throw camaraErrors.outOfRange(`maxAge must be between ${MAX_AGE.min} and ${MAX_AGE.max} hours.`);
  }
  return { phoneNumber, maxAge };
}

/**
 * POST /sim-swap/v2/check (sim-swap.yaml 2.1.0 checkSimSwap): `{swapped}`, true when the latest SIM change
 * recorded for the number (lib/sim-swap) happened within the last `maxAge` hours (inclusive). Three-legged: the
 * token's subscriber; two-legged: `phoneNumber` (simSwapSubject). A number that is neither a subscriber's nor has
 * recorded changes is 404 IDENTIFIER_NOT_FOUND.
 */
export const handleSimSwapCheck = networkApiOperation({
  name: "sim-swap.check", path: PATHS.simSwapCheck, scope: "sim-swap:check", twoLegged: true, body: checkBody,
  handle: async ({ caller, body }) => {
    const msisdn = simSwapSubject(caller, body.phoneNumber);
    const { known, latest } = await simSwapStatus({ msisdn });
    if (!known) throw camaraErrors.identifierNotFound("The phone number is not known.");
    const since = Date.now() - body.maxAge * 3600_000;
    return { swapped: latest !== null && latest.getTime() >= since };
  },
});
