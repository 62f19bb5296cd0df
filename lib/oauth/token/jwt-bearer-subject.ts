import type { RegisteredClient } from "../../clients/get-client";
import { findSignInRecipient } from "../../subscribers/find-sign-in-recipient";
import { OAuthError } from "../errors";
import type { LoginHint } from "../hints/parse-login-hint";
import { parseSubscriberHint } from "../hints/parse-subscriber-hint";
import { resolveLoginHint } from "../hints/resolve-login-hint";

/**
 * The subscriber `sub` names: `tel:+<E.164>` (RFC 3966, visual separators allowed) or a login_hint form
 * (lib/oauth/hints: MSISDN, ENCR_MSISDN, PCR of this client's sector, or CAMARA's `ipport:<ip>:<port>` resolved by
 * the network, lib/network), with the `amr` of how the subscriber was identified for the token (null: not
 * authenticated, only named; `nba`: the network named the data session's subscriber). Null for anything unusable,
 * and for an `ipport:` sub from a client the operator did not allow to name data sessions (networkHintsAllowed).
 */
export async function assertedSubscriber(sub: string, client: RegisteredClient): Promise<{
  subscriber: NonNullable<Awaited<ReturnType<typeof findSignInRecipient>>>; amr: string | null;
} | null> {
  if (sub.length > 2100) return null;
  let hint: LoginHint | null;
  try {
    hint = parseSubscriberHint(sub);
    if (!hint || (hint.kind === "MSISDN" && !/^[1-9]\d{6,14}$/.test(hint.msisdn))) return null;
    // Naming a data session is the operator's per-client permission (networkHintsAllowed): otherwise invalid_grant.
    if (hint.kind === "IPPORT" && !client.networkHintsAllowed) return null;
    const named = await resolveLoginHint({ hint, client });
    if (!named) return null; // an ipport the network does not know
    const subscriber = await findSignInRecipient(named.subscriberId ? { id: named.subscriberId } : { msisdn: named.msisdn });
    return subscriber ? { subscriber, amr: named.network ? "nba" : null } : null;
  } catch (err) {
    if (err instanceof OAuthError) return null; // a malformed hint: the same answer as an unknown subscriber
    throw err;
  }
}
