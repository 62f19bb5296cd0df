import type { RegisteredClient } from "../../clients/get-client";
import { findGrantedScopes } from "../../grants/find-granted-scopes";
import { InvalidGrant, InvalidScope } from "../errors";
import { parseScope } from "../scopes";
import { checkNetworkApiScopes } from "../../api-consent/check-scopes";
import { missingApiConsent } from "../../api-consent/needs-api-consent";
import { isNetworkApiScope, isPurposeScope } from "../../network-apis/camara-scopes";

/** The assertion's `scope` claim, narrowed by the `scope` parameter if given; the client's allowed scopes only. */
export async function requestedJwtBearerScopes({ client, claim, param }: {
  client: RegisteredClient; claim: unknown; param?: string;
}): Promise<string[]> {
  if (claim !== undefined && typeof claim !== "string") {
    throw new InvalidGrant("invalid assertion: the scope claim must be a space-separated string");
  }
  let scopes: string[];
  if (claim !== undefined) {
    scopes = parseScope(claim);
    if (param !== undefined) {
      const wanted = parseScope(param);
      const extra = wanted.filter((s) => !scopes.includes(s));
      if (extra.length) throw new InvalidScope(`scope exceeds the assertion's scope claim: ${extra.join(" ")}`);
      scopes = wanted;
    }
  } else if (param !== undefined) {
    scopes = parseScope(param);
  } else {
    throw new InvalidScope("scope is required: in the assertion's scope claim or the scope parameter");
  }
  if (!scopes.length) throw new InvalidScope("scope must not be empty");
  if (scopes.includes("offline_access")) throw new InvalidScope("offline_access: this grant issues no refresh token");
  // Network APIs (docs/network-apis.md): exactly one purpose, each (scope, purpose) declared, all allowed.
  await checkNetworkApiScopes(scopes, client);
  const extra = scopes.filter((s) => !client.allowedScopes.includes(s));
  if (extra.length) throw new InvalidScope(`scope not allowed for this client: ${extra.join(" ")}`);
  return scopes;
}

/**
 * Whether the subscriber's consent covers `scopes` for this client. Mobile Connect / OpenID scopes: each is either
 * in the client's consentFreeScopes (the operator's per-scope legal basis) or in the subscriber's stored consent
 * (lib/grants). Network-API scopes and their purpose: the operator's declaration for the purpose decides
 * (`contract` / `legitimate_interest`: none needed; `consent`: the subscriber's ApiConsent for this client and
 * purpose, lib/api-consent). Returns how consent was established ("stored" | "not_needed", for the audit row), or
 * null when it is missing.
 */
export async function checkJwtBearerConsent({ client, subscriberId, scopes }: {
  client: RegisteredClient; subscriberId: string; scopes: string[];
}): Promise<"stored" | "not_needed" | null> {
  const network = scopes.some(isNetworkApiScope);
  let stored = false;
  if (network) {
    if (await missingApiConsent({ subscriberId, clientId: client.id, scopes })) return null;
    stored = await needsAnyConsent(scopes, client);
  }
  const needConsent = scopes.filter((s) => !client.consentFreeScopes.includes(s) && !isNetworkApiScope(s)
    && !isPurposeScope(s));
  if (!needConsent.length) return stored ? "stored" : "not_needed";
  const consented = await findGrantedScopes({ subscriberId, clientId: client.id });
  return consented && needConsent.every((s) => consented.includes(s)) ? "stored" : null;
}

/** Whether some API scope of the (checked) request rests on consent (for the audit row: "stored"). */
async function needsAnyConsent(scopes: string[], client: RegisteredClient): Promise<boolean> {
  const api = await checkNetworkApiScopes(scopes, client);
  return api !== null && [...api.bases.values()].includes("consent");
}
