import { cache } from "react";

/**
 * Where the on-page language switch of the screen being rendered comes back to (a path relative to
 * the issuer), so that each display frame adds the switch without its page threading a prop through:
 * - React server rendering: one slot per request (React `cache()`), filled by pageLanguage()
 *   (lib/i18n/page-language.ts) from the request's own path before the page's frame renders;
 * - the script-free WAP renderer (server/wap-screen.tsx): renderWithSwitchBack() around its
 *   synchronous renderToStaticMarkup() call (nothing else can run in between).
 * Unset, the switch comes back to `/`.
 */
const perRequest = cache((): { back?: string } => ({}));
let rendering: string | undefined;

export function setSwitchBack(path: string): void {
  perRequest().back = path;
}

export function renderWithSwitchBack<T>(path: string, render: () => T): T {
  const previous = rendering;
  rendering = path;
  try {
    return render();
  } finally {
    rendering = previous;
  }
}

export function switchBack(): string {
  return rendering ?? perRequest().back ?? "/";
}
