import type { ComponentProps } from "react";
import type { Screen } from "@/lib/interaction/choose-screen";
import { CodeStep } from "./code-step";
import { ConsentStep } from "./consent-step";
import { ContinueStep } from "./continue-step";
import { MsisdnStep } from "./msisdn-step";
import { PhoneStep } from "./phone-step";
import { SelectStep } from "./select-step";
import type { StepProps } from "./step-props";

/**
 * The step component for the screen chooseScreen() picked, with the props every step shares. One
 * switch for the React page (app/interaction/[id]/page.tsx) and the script-free WAP rendering
 * (server/wap-screen.tsx), so a new screen kind appears on every display.
 */
export function ScreenStep({ screen, params: p, ...common }: StepProps & {
  screen: Screen;
  params: ComponentProps<typeof ConsentStep>["params"];
}) {
  switch (screen.kind) {
    case "select": return <SelectStep {...common} accounts={screen.accounts} />;
    case "msisdn": return <MsisdnStep {...common} maskedMsisdn={screen.maskedMsisdn} example={screen.example}
      typedMsisdn={screen.typed} phoneOffered={screen.phoneOffered} />;
    case "code": {
      const { kind: _kind, ...code } = screen;
      return <CodeStep {...common} {...code} needsPin={p.acr === "3"} />;
    }
    case "phone":
      return <PhoneStep {...common} checkCode={screen.checkCode} bindingMessage={screen.bindingMessage} needsPin={p.acr === "3"} />;
    case "consent": return <ConsentStep {...common} params={p} maskedMsisdn={screen.maskedMsisdn} shared={screen.shared} />;
    default: return <ContinueStep id={common.id} t={common.t} ui={common.ui} />;
  }
}
