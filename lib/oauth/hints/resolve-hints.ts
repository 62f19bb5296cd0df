import type { RegisteredClient } from "../../clients/get-client";
import { InvalidRequest, LoginError, LoginRequired } from "../errors";
import type { RawHints } from "../authorize/validate-params";
import { decryptLoginHintToken } from "./decrypt-login-hint-token";
import { findPairwiseSubscriber } from "../../subjects/find-pairwise-subscriber";
import { BAD_HINT, parseLoginHint } from "./parse-login-hint";
import { resolveLoginHint, type HintedSubscriber } from "./resolve-login-hint";
import { verifyIdTokenHint } from "./verify-id-token-hint";
import { identifyConnection } from "../../network/identify-connection";

export interface ResolvedHints {
  /**
   * What the client sent as its hint, byte for byte (`login_hint`, or the whole `login_hint_token`
   * when that was used), for `hashed_login_hint`: never the decrypted content.
   */
  loginHint?: string;
  hintedSubscriberId?: string;
  hintedMsisdn?: string;
}

/**
 * Resolves `login_hint_token` (which takes precedence over `login_hint`: it is the discovery
 * service's statement for this operator), `login_hint` and `id_token_hint` into the subscriber
 * they name. Hints naming two different subscribers are `invalid_request`.
 *
 * An unusable `id_token_hint` is the interface's "login error" (Errors table): `login_required`
 * with `prompt=none` (what OIDC clients doing silent re-authentication expect), otherwise
 * `login_error`, the name the interface gives it.
 *
 * An `ipport:` hint at /authorize is only a check against the request's own connection (identifyConnection): it
 * names its subscriber only when the network says this request came over that same subscriber's data session;
 * otherwise (another connection, or one the network does not know) it names nobody, so it is never a target for
 * sign-in codes, handset requests or the masked number on the sign-in screen.
 */
export async function resolveHints({ hints, client, promptNone, headers }: {
  hints: RawHints; client: RegisteredClient; promptNone: boolean;
  /** The /authorize request's headers: whose data session it came over (an `ipport:` hint is checked against it). */
  headers: Headers;
}): Promise<ResolvedHints> {
  let loginHint: string | undefined;
  let named: HintedSubscriber | undefined;
  if (hints.loginHintToken !== undefined) {
    const inner = await decryptLoginHintToken({ token: hints.loginHintToken });
    const parsed = inner === null ? null : parseLoginHint(inner);
    if (!parsed) throw new InvalidRequest(BAD_HINT);
    named = await ownConnectionOnly(await resolveLoginHint({ hint: parsed, client }), headers);
    // hashed_login_hint is of what the client sent: the hash of the decrypted MSISDN would let a
    // client that only ever held the token recover the number by brute force (an unsalted hash of
    // ~10^10 candidates).
    loginHint = hints.loginHintToken;
  } else if (hints.loginHint !== undefined) {
    const parsed = parseLoginHint(hints.loginHint);
    if (parsed) {
      loginHint = hints.loginHint;
      named = await ownConnectionOnly(await resolveLoginHint({ hint: parsed, client }), headers);
    }
  }
  if (hints.idTokenHint !== undefined) {
    const sub = (await verifyIdTokenHint({ token: hints.idTokenHint, clientId: client.id }))?.sub;
    const subscriber = sub && (await findPairwiseSubscriber({ sub, sectorIdentifier: client.sectorIdentifier }));
    if (!subscriber) {
      const text = "The id_token_hint is not a valid id_token issued to this client";
      throw promptNone ? new LoginRequired(text) : new LoginError(text);
    }
    if (named && named.msisdn !== subscriber.msisdn) {
      throw new InvalidRequest(`${BAD_HINT}: it names another subscriber than id_token_hint`);
    }
    named = { msisdn: subscriber.msisdn, subscriberId: subscriber.id };
  }
  return { loginHint, hintedSubscriberId: named?.subscriberId, hintedMsisdn: named?.msisdn };
}

/** An `ipport:` hint's subscriber only when this request's own connection is theirs; other hints as they are. */
async function ownConnectionOnly(named: HintedSubscriber | null, headers: Headers): Promise<HintedSubscriber | undefined> {
  if (!named) return undefined; // an ipport the network does not know
  if (!named.network) return named;
  const identity = await identifyConnection(headers);
  return identity && identity.msisdn === named.msisdn ? named : undefined;
}
