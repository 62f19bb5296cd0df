import { db } from "../db";
import { splitNetworkApiScopes } from "../network-apis/camara-scopes";
import { parseScope } from "../oauth/scopes";
import { declaredBases, type LegalBasis } from "./purposes";

/**
 * The API scopes of `scopes` that need the subscriber's consent for this client and are not covered by a consent
 * in force (ApiConsent), with their purpose; null when none does. A scope whose declared basis is `consent` needs
 * it; `contract` / `legitimate_interest` do not. A request without API scope reads nothing. Scopes are assumed
 * checked (checkNetworkApiScopes); an unchecked request without exactly one purpose answers "needs consent" for
 * all its API scopes (never silently granted).
 */
export async function missingApiConsent({ subscriberId, clientId, scopes, bases: known }: {
  subscriberId: string; clientId: string; scopes: readonly string[];
  /** The declared bases when the caller already read them (checkNetworkApiScopes). */
  bases?: ReadonlyMap<string, LegalBasis>;
}): Promise<{ purpose: string; scopes: string[] } | null> {
  const { apiScopes, purposes } = splitNetworkApiScopes(scopes);
  if (!apiScopes.length) return null;
  if (purposes.length !== 1) return { purpose: purposes[0] ?? "", scopes: apiScopes };
  const purpose = purposes[0]!;
  const bases = known ?? await declaredBases({ scopes: apiScopes, purpose });
  const needed = apiScopes.filter((s) => bases.get(s) !== "contract" && bases.get(s) !== "legitimate_interest");
  if (!needed.length) return null;
  const consent = await db.apiConsent.findUnique({
    where: { subscriberId_clientId_purpose: { subscriberId, clientId, purpose } },
    select: { scope: true, withdrawnAt: true },
  });
  const covered = consent && !consent.withdrawnAt ? parseScope(consent.scope) : [];
  const missing = needed.filter((s) => !covered.includes(s));
  return missing.length ? { purpose, scopes: missing } : null;
}

/**
 * Whether `scopes` (with their one purpose) need the subscriber's consent for this client that is not on record
 * (docs/network-apis.md "Purposes and consent"): some API scope whose declared legal basis for the purpose is
 * `consent` and no ApiConsent row (not withdrawn) covers it. Used where a subscriber could be signed in without a
 * screen (network-based authentication, CIBA's silent approval): then the consent must be asked instead.
 */
export async function needsApiConsent(args: { subscriberId: string; clientId: string; scopes: readonly string[] }):
  Promise<boolean> {
  return (await missingApiConsent(args)) !== null;
}
