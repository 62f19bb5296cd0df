import type { RegisteredClient } from "../../clients/get-client";
import { findGrantedScopes } from "../../grants/find-granted-scopes";
import { InvalidGrant, InvalidScope } from "../errors";
import { parseScope } from "../scopes";

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
  const extra = scopes.filter((s) => !client.allowedScopes.includes(s));
  if (extra.length) throw new InvalidScope(`scope not allowed for this client: ${extra.join(" ")}`);
  return scopes;
}

/**
 * Whether the subscriber's consent covers `scopes` for this client: each scope is either in the client's
 * consentFreeScopes (the operator's per-scope legal basis) or in the subscriber's stored consent (lib/grants).
 * Returns how consent was established ("stored" | "not_needed", for the audit row), or null when it is missing.
 */
export async function checkJwtBearerConsent({ client, subscriberId, scopes }: {
  client: RegisteredClient; subscriberId: string; scopes: string[];
}): Promise<"stored" | "not_needed" | null> {
  const needConsent = scopes.filter((s) => !client.consentFreeScopes.includes(s));
  if (!needConsent.length) return "not_needed";
  const consented = await findGrantedScopes({ subscriberId, clientId: client.id });
  return consented && needConsent.every((s) => consented.includes(s)) ? "stored" : null;
}
