import { logger } from "../log";
import { maskMsisdn } from "./mask-msisdn";
import type { MessagingChannel } from "./messaging-channel";

/**
 * A channel that delivers nothing and writes one redacted line per message (masked number and
 * length; never the body, which may carry a one-time code). For deployments without a handset.
 */
export function createLogChannel(): MessagingChannel {
  return {
    async send({ msisdn, body }) {
      logger.info({ channel: "log", to: maskMsisdn(msisdn), length: body.length }, "message not delivered (log channel)");
    },
  };
}
