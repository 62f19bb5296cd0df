import { randomToken, sha256 } from "../crypto";
import { issuerBase } from "../http/issuer-base";
import { hashOneTimeCode, newOneTimeCode } from "../interaction/one-time-code";

/**
 * The fallback for a subscriber with no enrolled handset (docs/ciba.md): a text message with a link that opens the
 * approval page in the phone's browser, and a one-time code the page asks for before it shows the request. The
 * link's random part is stored as SHA-256 (BackchannelRequest.linkHash), the code salted with the request id
 * (codeHash), with at most SMS_CODE_ATTEMPTS tries. Opening the link (GET) never answers anything.
 */
export const SMS_LINK_PATH = "/handset/approve";
export const SMS_CODE_ATTEMPTS = 5;

/** A new link and code for the backchannel request `requestId` (its BackchannelRequest.id). */
export function mintSmsLink({ requestId }: { requestId: string }) {
  const token = randomToken(24);
  const code = newOneTimeCode();
  return { token, url: `${issuerBase()}${SMS_LINK_PATH}/${token}`, linkHash: smsLinkHash(token), code,
    codeHash: hashOneTimeCode({ requestId, code }) };
}

/** What the link's random part is stored as. */
export function smsLinkHash(token: string): string {
  return sha256(`ciba-link\n${token}`);
}
