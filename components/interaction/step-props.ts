import type { DisplayUi } from "@/components/display/display-ui";
import type { ClientProvenance } from "@/lib/clients/client-provenance";
import type { Messages } from "@/lib/i18n/get-messages";

/** What every step component receives. */
export interface StepProps {
  id: string;
  csrf: string;
  t: Messages;
  ui: DisplayUi;
  clientName: string;
  /** A self-registered client's mark (components/interaction/client-mark.tsx), shown beside its name. */
  mark?: ClientProvenance | null;
  /** Localized message of the last failed step, if any. */
  error?: string;
  /** Its code and, for a lockout or limit, when it ends (lib/interaction/read-step-notice.ts). */
  errorCode?: string;
  retryAt?: Date;
  /** After a wrong PIN: tries left before the lockout (issue 17, lib/interaction/read-step-notice.ts). */
  pinTriesLeft?: number;
}
