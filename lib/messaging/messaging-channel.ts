import { config } from "../config";
import { deviceInboxAllowed } from "./device-inbox-allowed";
import { createInboxChannel } from "./inbox-channel";
import { createLogChannel } from "./log-channel";
import { inSpan, tracing } from "../tracing/spans";
import { SpanKind } from "@opentelemetry/api";

/**
 * How the service reaches a subscriber's handset (one-time codes, notifications). A real SMS
 * gateway (SMPP, an operator REST API...) plugs in here: implement `send`, add its name to
 * `MESSAGING_CHANNEL` in lib/config.ts and return it from `getMessagingChannel`.
 */
export interface MessagingChannel {
  /** Delivers `body` to the handset of `msisdn` (E.164 digits, no '+'); throws when it cannot. */
  send(message: { msisdn: string; body: string }): Promise<void>;
}

let channel: MessagingChannel | undefined;

/**
 * The configured channel: `inbox` stores each message in the Message table (the device inbox page
 * shows it, as a handset would), only in the local demo; `log` only writes a redacted log line
 * (nothing is delivered).
 */
export function getMessagingChannel(): MessagingChannel {
  const c = config();
  if (!channel) {
    const name = c.MESSAGING_CHANNEL === "inbox" && deviceInboxAllowed(c) ? "inbox" : "log";
    channel = traced(name, name === "inbox" ? createInboxChannel() : createLogChannel());
  }
  return channel;
}

/**
 * Each send as a CLIENT span `message.send` (messaging.system: the channel's name) when traces are on
 * (lib/tracing): never the number nor the body (a one-time code).
 */
function traced(name: string, inner: MessagingChannel): MessagingChannel {
  return {
    send: (message) => tracing.on
      ? inSpan("message.send", SpanKind.CLIENT, { "messaging.system": name }, () => inner.send(message))
      : inner.send(message),
  };
}
