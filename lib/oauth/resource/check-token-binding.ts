import type { AccessToken } from "../../tokens/token-rows";
import { checkDpopProof } from "../dpop/check-dpop-proof";
import { dpopChallenge, invalidDpopProof } from "../dpop/dpop-errors";
import { InvalidToken } from "../errors";
import type { TokenScheme } from "./read-bearer-token";

/**
 * The sender constraint of a presented access token (RFC 9449 §7): a DPoP-bound token (`dpopJkt`) must
 * come as `Authorization: DPoP` with a proof for this request (`htm`, `htu` = the endpoint's issuer-based
 * URL, `ath` = the token's hash) made with the key it is bound to; presented as Bearer (header, body or
 * `?token=`) it is `invalid_token` (§7.2). An unbound token must come as Bearer: `Authorization: DPoP`
 * with it is `invalid_token`; a `DPoP` header beside a Bearer token is ignored (the token is used as Bearer).
 * Nothing is read or written for an unbound token presented as Bearer.
 */
export async function checkTokenBinding({ req, row, token, scheme, path }: {
  req: Request; row: Pick<AccessToken, "dpopJkt">; token: string; scheme: TokenScheme; path: string;
}): Promise<void> {
  if (!row.dpopJkt) {
    if (scheme === "dpop") throw withDpopChallenge(new InvalidToken("The access token is not DPoP-bound: use the Bearer scheme"));
    return;
  }
  if (scheme !== "dpop") {
    throw withDpopChallenge(new InvalidToken("The access token is DPoP-bound: present it with the DPoP scheme and a proof"));
  }
  const proof = await checkDpopProof(req.headers, {
    method: req.method, path, place: "resource", accessToken: token, requireNonce: false,
  });
  if (!proof) throw invalidDpopProof("a DPoP proof is required with the DPoP scheme", "resource");
  if (proof.jkt !== row.dpopJkt) throw invalidDpopProof("the DPoP proof's key is not the one the token is bound to", "resource");
}

function withDpopChallenge<E extends InstanceType<typeof InvalidToken>>(err: E): E {
  err.headers["WWW-Authenticate"] = dpopChallenge(err);
  return err;
}
