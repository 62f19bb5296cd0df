import type { RegisteredClient } from "../../clients/get-client";
import { decryptMsisdn } from "./encr-msisdn";
import { getKeys } from "../../keys/key-store";
import { InvalidRequest } from "../errors";
import { BAD_HINT, type LoginHint } from "./parse-login-hint";
import { findIssuedPcrSubscriber } from "../../subjects/find-issued-pcr-subscriber";
import { getNetworkResolver } from "../../network/network-resolver";

/** Whom a hint names: always the MSISDN, and the subscriber id when the hint form carries it. */
export interface HintedSubscriber {
  msisdn: string;
  subscriberId?: string;
  /** The network named them (an `ipport:` hint): the data session is theirs now. */
  network?: true;
}

/**
 * Resolves a parsed login hint. MSISDN and ENCR_MSISDN are not looked up: whether such a
 * subscriber exists (or is suspended) must not show at this stage, so the sign-in screen fails
 * generically later. An `ipport:` hint is resolved by the network (lib/network, one look-up): null when the
 * network does not know that address and port (the hint then names nobody, as an unknown number). ENCR_MSISDN is tried with every published `enc` key (active first) so values
 * made before a key rotation still work. A PCR must have been issued to this client (findIssuedPcrSubscriber: its
 * sector, and the subscriber's remembered consent for it); any other PCR is the same `invalid_request`.
 */
export async function resolveLoginHint({ hint, client }: { hint: LoginHint; client: RegisteredClient }):
  Promise<HintedSubscriber | null> {
  if (hint.kind === "IPPORT") {
    const msisdn = await getNetworkResolver().identify({ address: hint.address, port: hint.port });
    return msisdn ? { msisdn, network: true } : null;
  }
  if (hint.kind === "MSISDN") return { msisdn: hint.msisdn };
  if (hint.kind === "ENCR_MSISDN") {
    const keys = (await getKeys()).filter((k) => k.use === "enc")
      .sort((a, b) => Number(b.status === "active") - Number(a.status === "active"));
    for (const key of keys) {
      const msisdn = decryptMsisdn({ value: hint.value, privateKey: key.privateKey });
      if (msisdn) return { msisdn };
    }
    throw new InvalidRequest(BAD_HINT);
  }
  const subscriber = await findIssuedPcrSubscriber({ pcr: hint.pcr, client });
  if (!subscriber) throw new InvalidRequest(BAD_HINT);
  return { msisdn: subscriber.msisdn, subscriberId: subscriber.id };
}
