import { redirect } from "next/navigation";
import { servicePath } from "../interaction/screen-headers";
import { isDatabaseUnavailable } from "./is-database-unavailable";
import { logDatabaseUnavailable } from "./respond";

/**
 * For the React screens (`page.tsx`), which cannot choose their status: runs a data load and, when
 * the database is unavailable, sends the browser to GET /unavailable, the 503 page that links back
 * to `retryPath` and reloads it after Retry-After seconds. Other errors propagate unchanged.
 */
export async function loadOrUnavailable<T>(load: () => Promise<T>, retryPath: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    logDatabaseUnavailable(err);
    redirect(servicePath(`/unavailable?retry=${encodeURIComponent(retryPath)}`));
  }
}
