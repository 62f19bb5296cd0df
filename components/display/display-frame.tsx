import type { Messages } from "@/lib/i18n/get-messages";
import { DISPLAY_UI, type Display, type DisplayUi } from "./display-ui";
import { PageFrame } from "./page-frame";
import { PopupFrame } from "./popup-frame";
import { TouchFrame } from "./touch-frame";
import { WapFrame } from "./wap-frame";

const FRAMES = { page: PageFrame, popup: PopupFrame, touch: TouchFrame, wap: WapFrame };

/** The frame of one display, rendering its content with that display's control styles. */
export function DisplayFrame({ display, t, children }: {
  display: Display; t: Messages; children: (ui: DisplayUi) => React.ReactNode;
}) {
  const Frame = FRAMES[display] ?? PageFrame;
  return <Frame t={t}>{children(DISPLAY_UI[display] ?? DISPLAY_UI.page)}</Frame>;
}
