/**
 * Screen areas that were renamed, old prefix -> new prefix. The subscriber's handset pages lived under
 * `/device`, which OAuth readers take for the RFC 8628 device flow; they are `/handset` now, and the old
 * addresses (bookmarks, an installed home-screen link, a form left open across a deploy) keep working.
 */
const MOVED: ReadonlyArray<readonly [string, string]> = [["/device", "/handset"]];

/** The new path for a path under a renamed area (the area itself or below it), else null. */
export function movedPath(pathname: string): string | null {
  for (const [from, to] of MOVED) {
    if (pathname === from || pathname.startsWith(`${from}/`)) return to + pathname.slice(from.length);
  }
  return null;
}
