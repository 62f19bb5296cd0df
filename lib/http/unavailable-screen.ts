import { redirect } from "next/navigation";
import { servicePath } from "../interaction/screen-headers";
import { ifDatabaseUnavailable } from "./if-database-unavailable";

/**
 * For the React screens (`page.tsx`), which cannot choose their status: runs a data load and, when
 * the database is unavailable, sends the browser to GET /unavailable, the 503 page that links back
 * to `retryPath` and reloads it after Retry-After seconds. Other errors propagate unchanged.
 */
export async function loadOrUnavailable<T>(load: () => Promise<T>, retryPath: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    ifDatabaseUnavailable(err, () => redirect(servicePath(`/unavailable?retry=${encodeURIComponent(retryPath)}`)));
    throw err;
  }
}
