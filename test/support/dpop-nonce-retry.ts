import * as oauth from "oauth4webapi";

/**
 * Runs an oauth4webapi request and retries it once on `use_dpop_nonce`, as RFC 9449 §8 asks of clients (the
 * DPoP handle keeps the nonce the server handed out).
 */
export async function withNonceRetry<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (oauth.isDPoPNonceError(err)) return run();
    throw err;
  }
}
