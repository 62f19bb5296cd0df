import type { RegisteredClient } from "../../clients/get-client";
import { db } from "../../db";
import { ExpiredLoginHintToken, InvalidRequest, OAuthError, UnauthorizedClient, UnknownUserId } from "../../oauth/errors";
import { readLoginHintToken } from "../../oauth/hints/decrypt-login-hint-token";
import { BAD_HINT } from "../../oauth/hints/parse-login-hint";
import { parseSubscriberHint } from "../../oauth/hints/parse-subscriber-hint";
import { resolveLoginHint } from "../../oauth/hints/resolve-login-hint";
import { verifyIdTokenHint } from "../../oauth/hints/verify-id-token-hint";
import { findPairwiseSubscriber } from "../../subjects/find-pairwise-subscriber";
import { subjectSecretHmac } from "../../keyed-hmac";
import type { BackchannelHint } from "./validate-request";

export interface NamedSubscriber {
  id: string;
  msisdn: string;
  status: string;
  locale: string | null;
  userCodeHash: string | null;
  /** An `ipport:` hint: the network named them (their data session is the one the client saw). */
  network?: true;
  /**
   * No subscriber has this number (a self-registered client's hint): a stand-in answered like a subscriber who is
   * not active, so the request is accepted, shown on no handset and ends `expired` (`id`: a keyed hash of the number,
   * stable so the per-subscriber ceilings count it like a subscriber's; never a subscriber's id).
   */
  unknown?: true;
}

const UNKNOWN = "the hint does not name a subscriber of this operator";
const standInId = subjectSecretHmac("ciba unknown number");
const NO_NETWORK_HINTS = "this client may not name a data session (ipport login hint)";

/**
 * The subscriber a backchannel request's one hint names (CIBA Core §7.1), with what the request needs of them.
 * `unknown_user_id` only when the hint names no subscriber at all: an unknown number, an ENCR_MSISDN that does not
 * decrypt, a PCR not issued to this client, an id_token_hint that is not a valid id_token of ours issued
 * to this client (an expired one is fine: it names a past sign-in). A suspended subscriber is returned like any
 * other: the caller must not reveal it. `login_hint`: every form /authorize accepts (MSISDN:, ENCR_MSISDN:, PCR:,
 * a bare E.164 number) and `tel:+<E.164>`; a recognised prefix with a malformed value is `invalid_request`.
 * `login_hint_token`: ours (lib/oauth/hints), `expired_login_hint_token` once its exp passed. `ipport:<ip>:<port>`
 * (CAMARA) is resolved by the network (lib/network): unknown there, `unknown_user_id` as an unknown number; only for
 * a client the operator allowed (networkHintsAllowed), otherwise `unauthorized_client` before any look-up.
 * A PCR must have been issued to this client (lib/subjects/find-issued-pcr-subscriber.ts); any other is unknown.
 *
 * A self-registered client (registeredBy "dynamic") never learns whether a number is a subscriber's: a number (MSISDN,
 * tel:, bare, or an ENCR_MSISDN / login_hint_token that decrypts to one) naming nobody gives a stand-in (`unknown`)
 * that the request treats like a suspended subscriber: accepted with an auth_req_id, then expired, as a request
 * nobody answers. `unknown_user_id` stays for the operator's clients, and for hints that name no number at all.
 */
export async function resolveBackchannelSubscriber({ hint, client }: { hint: BackchannelHint; client: RegisteredClient }):
  Promise<NamedSubscriber> {
  let where: { id: string } | { msisdn: string };
  let network = false;
  if (hint.kind === "id_token_hint") {
    const sub = (await verifyIdTokenHint({ token: hint.value, clientId: client.id }))?.sub;
    const named = sub ? await findPairwiseSubscriber({ sub, sectorIdentifier: client.sectorIdentifier }) : null;
    if (!named) throw new UnknownUserId("the id_token_hint is not a valid id_token issued to this client");
    where = { id: named.id };
  } else {
    let text = hint.value;
    if (hint.kind === "login_hint_token") {
      const read = await readLoginHintToken({ token: hint.value });
      if (read && "expired" in read) throw new ExpiredLoginHintToken("the login_hint_token has expired");
      if (!read) throw new InvalidRequest(`${BAD_HINT}: the login_hint_token could not be read`);
      text = read.hint;
    }
    if (text.length > 2100) throw new InvalidRequest(BAD_HINT);
    const parsed = parseSubscriberHint(text);
    if (!parsed) throw new UnknownUserId(UNKNOWN);
    // Naming a data session is the operator's per-client permission (Client.networkHintsAllowed, `client set
    // --network-hints`; never by registration): checked before the network is asked anything.
    if (parsed.kind === "IPPORT" && !client.networkHintsAllowed) throw new UnauthorizedClient(NO_NETWORK_HINTS);
    let named;
    try {
      named = await resolveLoginHint({ hint: parsed, client });
    } catch (err) {
      if (err instanceof OAuthError) throw new UnknownUserId(UNKNOWN); // does not decrypt, another sector's PCR
      throw err;
    }
    if (!named) throw new UnknownUserId(UNKNOWN); // an ipport the network does not know
    network = named.network === true;
    where = named.subscriberId ? { id: named.subscriberId } : { msisdn: named.msisdn };
  }
  const subscriber = await db.subscriber.findUnique({ where,
    select: { id: true, msisdn: true, status: true, locale: true, userCodeHash: true } });
  if (!subscriber) {
    if (client.registeredBy === "dynamic" && "msisdn" in where) {
      return { id: `unknown:${standInId(where.msisdn)}`, msisdn: where.msisdn, status: "unknown", locale: null,
        userCodeHash: null, unknown: true };
    }
    throw new UnknownUserId(UNKNOWN);
  }
  return network ? { ...subscriber, network: true } : subscriber;
}
