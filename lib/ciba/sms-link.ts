import { randomToken, sha256 } from "../crypto";
import { formToken } from "../http/form-token";
import { issuerBase } from "../http/issuer-base";
import { newOneTimeCode } from "../interaction/one-time-code";

/**
 * The fallback for a subscriber with no enrolled handset (docs/ciba.md): a text message with a link that opens the
 * approval page in the phone's browser, and a one-time code the page asks for before it shows the request. The
 * link's random part is stored as SHA-256 (BackchannelRequest.linkHash), the code as an HMAC under the service's
 * key (smsCodeHash: a database dump alone does not let anyone try the million codes offline), with at most
 * SMS_CODE_ATTEMPTS tries. Opening the link (GET) never answers anything.
 */
export const SMS_LINK_PATH = "/handset/approve";
export const SMS_CODE_ATTEMPTS = 5;

/** The HMAC label of the link's code (formToken: a label-separated use of KEY_ENCRYPTION_SECRET). */
const CODE_HASH_LABEL = "ciba-link-code-hash";

/** A new link and code for the backchannel request `requestId` (its BackchannelRequest.id). */
export function mintSmsLink({ requestId }: { requestId: string }) {
  const token = randomToken(24);
  const code = newOneTimeCode();
  return { token, url: `${issuerBase()}${SMS_LINK_PATH}/${token}`, linkHash: smsLinkHash(token), code,
    codeHash: smsCodeHash({ requestId, code }) };
}

/** What the link's random part is stored as. */
export function smsLinkHash(token: string): string {
  return sha256(`ciba-link\n${token}`);
}

/**
 * What the link's code is stored as (BackchannelRequest.codeHash): HMAC-SHA-256 under the service's key of the
 * request id and the code, so equal codes of two requests never share a value and a dump without the key is useless.
 * Compared in constant time (lib/ciba/answer-by-link.ts).
 */
export function smsCodeHash({ requestId, code }: { requestId: string; code: string }): string {
  return formToken(CODE_HASH_LABEL, `${requestId}\n${code}`);
}
