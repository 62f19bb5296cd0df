import { checkFormToken, formToken } from "../http/form-token";

/**
 * The anti-CSRF token of one interaction's forms (lib/http/form-token.ts): bound to the request id
 * and the browser binding, so useless in another browser or for another request.
 */
export function interactionCsrfToken({ id, browserIdHash }: { id: string; browserIdHash: string }): string {
  return formToken("interaction-csrf", `${id}\n${browserIdHash}`);
}

/** Constant-time check of a submitted token against the one derived for this interaction. */
export function checkInteractionCsrfToken(args: { id: string; browserIdHash: string; token: string | undefined }): boolean {
  return checkFormToken("interaction-csrf", `${args.id}\n${args.browserIdHash}`, args.token);
}
