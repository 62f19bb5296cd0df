import { ACCOUNT_CLIENT_ID } from "../../clients/account-client-id";
import { isNetworkApiOnly, isNetworkApiScope, isPurposeScope } from "../../network-apis/camara-scopes";
import type { RequestState } from "./choose-session";
import type { AuthorizationParams } from "./types";

type Params = Pick<AuthorizationParams, "prompt" | "scopes"> & Partial<Pick<AuthorizationParams, "clientId">>;

/**
 * Consent that can never be remembered: `prompt=consent` (OIDC Core §3.1.2.1) and `mc_authz`,
 * where each transaction (its context and binding message) is approved on its own.
 */
export function consentAlwaysAsked(params: Params): boolean {
  return params.prompt.includes("consent") || params.scopes.includes("mc_authz");
}

/**
 * Whether the subscriber must still consent (pure): not when this request was consented to on
 * the consent screen, otherwise unless a remembered grant for (subscriber, client) covers every
 * requested scope (a request for more scopes asks again). Never for the account page's own client
 * (lib/clients/account-client-id.ts): it is the subscriber's own account, nothing is shared with anyone.
 * Network-API scopes and their purpose (docs/network-apis.md) are not held to the remembered grant: the
 * operator's legal basis decides, and `apiConsentMissing` says whether a consent-based one is not covered by
 * the subscriber's consent for that client and purpose (lib/api-consent).
 */
export function needsConsent({ params, grantedScopes, request, sessionId, apiConsentMissing = false }: {
  params: Params; grantedScopes: readonly string[] | null; request?: RequestState; sessionId: string;
  apiConsentMissing?: boolean;
}): boolean {
  if (params.clientId === ACCOUNT_CLIENT_ID) return false;
  if (request?.status === "consented" && request.sessionId === sessionId) return false;
  if (consentAlwaysAsked(params) || apiConsentMissing) return true;
  // A network-API request that asks nothing beyond `openid` (the pairwise sub) and API scopes whose legal basis
  // needs no consent has nothing to consent to: Number Verification's silent sign-in has no screen at all.
  if (isNetworkApiOnly(params.scopes)) return false;
  if (!grantedScopes) return true;
  return !params.scopes.every((s) => grantedScopes.includes(s) || isNetworkApiScope(s) || isPurposeScope(s));
}

