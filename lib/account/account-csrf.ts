import { checkFormToken, formToken } from "../http/form-token";

/**
 * The anti-CSRF token of the account page's forms (lib/http/form-token.ts): bound to the account
 * session's token hash, so useless with another session.
 */
export function accountCsrfToken({ tokenHash }: { tokenHash: string }): string {
  return formToken("account-csrf", tokenHash);
}

/** Constant-time check of a submitted token against the one derived for this session. */
export function checkAccountCsrfToken({ tokenHash, token }: { tokenHash: string; token: string | undefined }): boolean {
  return checkFormToken("account-csrf", tokenHash, token);
}
