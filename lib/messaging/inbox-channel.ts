import { randomUUID } from "node:crypto";
import { db } from "../db";
import { logger } from "../log";
import { maskMsisdn } from "./mask-msisdn";
import type { MessagingChannel } from "./messaging-channel";

/**
 * The local "device inbox": each message becomes a Message row that /handset/inbox shows.
 * The log line names the masked number only; a body may carry a one-time code and is never logged.
 */
export function createInboxChannel(): MessagingChannel {
  return {
    async send({ msisdn, body }) {
      const id = randomUUID();
      await db.message.create({ data: { id, msisdn, body } });
      logger.info({ channel: "inbox", to: maskMsisdn(msisdn), messageId: id, length: body.length }, "message sent");
    },
  };
}
