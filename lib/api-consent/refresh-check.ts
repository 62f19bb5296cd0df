import { splitNetworkApiScopes } from "../network-apis/camara-scopes";
import { missingApiConsent } from "./needs-api-consent";
import { declaredBases } from "./purposes";

/**
 * Why a refresh token granted `scopes` may no longer be used (docs/network-apis.md "Consent and withdrawal"), or
 * null: the grant's network-API scopes are checked again as at issuance, against the operator's declarations of
 * today (each (API scope, purpose) pair still declared; ApiPurpose) and, for a pair now declared `consent`, the
 * subscriber's consent in force for this client (ApiConsent). Reads nothing for a grant without API scope (the
 * refresh of every other grant keeps its statements). Two indexed reads at most otherwise.
 */
export async function refreshRefusal({ subscriberId, clientId, scopes }: {
  subscriberId: string; clientId: string; scopes: readonly string[];
}): Promise<string | null> {
  const { apiScopes, purposes } = splitNetworkApiScopes(scopes);
  if (!apiScopes.length) return null;
  if (purposes.length !== 1) return "the grant's network API scopes do not carry exactly one purpose";
  const purpose = purposes[0]!;
  const bases = await declaredBases({ scopes: apiScopes, purpose });
  const undeclared = apiScopes.filter((s) => !bases.has(s));
  if (undeclared.length) {
    return `${undeclared.join(" ")} is no longer declared by the operator for the purpose ${purpose}`;
  }
  const missing = await missingApiConsent({ subscriberId, clientId, scopes, bases });
  if (missing) return `the subscriber's consent to ${missing.scopes.join(" ")} for ${missing.purpose} is not in force`;
  return null;
}
