import { cache } from "react";
import { currentScreen } from "./current-screen";
import { failureContext } from "./failure-context";

/**
 * currentScreen() and failureContext() once per rendered request (React `cache()`): the root layout
 * (the page's language for `<html lang>` and the title, lib/i18n/page-language.ts) and
 * app/interaction/[id]/page.tsx share one read of the stored request instead of two.
 */
export const currentScreenOnce = cache((id: string, browserId: string | null, wantsNumber: boolean) =>
  currentScreen({ id, browserId, wantsNumber }));

export const failureContextOnce = cache((id: string, acceptLanguage: string | null, browserId: string | null) =>
  failureContext(id, acceptLanguage, browserId));
