/**
 * The account page's own client (app/account, docs/account.md): a built-in public client of our own
 * authorization endpoint, so the account page signs subscribers in through the very screens, limits
 * and lockouts every app gets. Its only redirect URI is ours, so no one else can use it.
 */
export const ACCOUNT_CLIENT_ID = "account";

/** The name the sign-in screens show ("to continue to Your account"). */
export const ACCOUNT_CLIENT_NAME = "Your account";

/** Its redirect URI, under the issuer (lib/account/finish-account-sign-in.ts answers it). */
export const ACCOUNT_CALLBACK_PATH = "/account/callback";
