import { listAuditEvents, type AuditEventView } from "../../audit/list-audit-events";
import { listSubscriberSignIns, type SignInRecord } from "../../audit/list-subscriber-sign-ins";
import { pseudonymiseSubscriber } from "../../audit/pseudonymise-subscriber";
import { findClientNames } from "../../clients/find-client-names";
import { listDevices, type DeviceRecord } from "../../devices/list-devices";
import { listSubscriberGrants, type SubscriberGrant } from "../../grants/list-subscriber-grants";
import { findSubscriber } from "../../subscribers/find-subscriber";
import { toSubscriberRecord, type SubscriberRecord } from "../../subscribers/subscriber-record";
import { staffUsernames } from "../audit/staff-usernames";

/** Everything the console's subscriber page shows (customer care): no PIN hash, no user-code hash. */
export interface ConsoleSubscriberView {
  subscriber: SubscriberRecord;
  /** The subscriber's pseudonym in the audit log. */
  subscriberRef: string;
  devices: DeviceRecord[];
  consents: SubscriberGrant[];
  signIns: SignInRecord[];
  events: AuditEventView[];
  /** Registered client names and staff usernames, by id, for the tables. */
  clientNames: Map<string, string>;
  staffNames: Map<string, string>;
}

/** The console's view of one subscriber by id, or null when there is none. The same reads as the account page's. */
export async function loadSubscriberView({ id }: { id: string }): Promise<ConsoleSubscriberView | null> {
  const row = await findSubscriber({ id });
  if (!row) return null;
  const subscriberRef = pseudonymiseSubscriber(row.id);
  const [devices, consents, signIns, events] = await Promise.all([
    listDevices({ subscriberId: row.id }), listSubscriberGrants({ subscriberId: row.id }),
    listSubscriberSignIns({ subscriberId: row.id }), listAuditEvents({ subscriberRef, limit: 20 }),
  ]);
  const [clientNames, staffNames] = await Promise.all([
    findClientNames({ clientIds: [...consents.map((g) => g.clientId), ...signIns.flatMap((s) => s.clientId ?? []),
      ...events.flatMap((e) => e.clientId ?? [])] }),
    staffUsernames({ staffIds: events.map((e) => e.staffId) }),
  ]);
  return { subscriber: toSubscriberRecord(row), subscriberRef, devices, consents, signIns, events, clientNames,
    staffNames };
}
