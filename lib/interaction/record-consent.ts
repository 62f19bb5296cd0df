import { getClient } from "../clients/get-client";
import { denyConsent } from "../grants/deny-consent";
import { giveConsent } from "../grants/give-consent";
import { recordApiConsent } from "../api-consent/consents";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/consent with `decision=allow|deny`. Deny makes the request `denied`
 * (access_denied). Allow makes it `consented` and, in the same transaction, remembers the consent
 * per subscriber and client (scope set = union of old and new, so a request for more scopes asks
 * again) - except for transaction authorisations (`mc_authz`), approved one at a time - and records
 * the pairwise subject (PCR) so later `PCR:` hints and id_token_hints resolve; a request with network-API
 * scopes also records the subscriber's consent per client and purpose (ApiConsent, lib/api-consent)
 * (lib/grants/give-consent.ts, deny-consent.ts; lifecycle in lib/oauth/authorize/types.ts).
 */
export async function recordConsent({ request, params, form, ip }: StepInput): Promise<StepResult> {
  const subscriberId = request.subscriberId;
  if (request.status !== "authenticated" || !subscriberId) return { to: "interaction" };
  const decision = form.get("decision");
  if (decision !== "allow" && decision !== "deny") return { to: "interaction" };
  if (decision === "deny") {
    await denyConsent({ requestId: request.id, audit: { type: "consent_denied", outcome: "denied", subscriberId,
      clientId: params.clientId, ip, detail: { scope: params.scopes.join(" ") } } });
    return { to: "resume" };
  }
  const client = await getClient({ clientId: params.clientId });
  if (!client) return { to: "resume" };
  const remember = !params.scopes.includes("mc_authz");
  // Network APIs (docs/network-apis.md): the consent per client and purpose, before the request is consented (so
  // a code is never issued for consent-based API scopes without it on record).
  await recordApiConsent({ subscriberId, clientId: params.clientId, scopes: params.scopes });
  await giveConsent({
    requestId: request.id, subscriberId, clientId: params.clientId, sectorIdentifier: client.sectorIdentifier,
    scopes: params.scopes, remember,
    audit: { type: "consent_given", outcome: "success", subscriberId, clientId: params.clientId, ip,
      detail: { scope: params.scopes.join(" "), remembered: remember } },
  });
  return { to: "resume" };
}
