/** The console's abuse limits page (every role reads; administrators lift a throttle). */
const en = {
  title: "Abuse limits",
  intro: "Who is refused now by an abuse limit, and until when. The counters store only a hash of the number or "
    + "address they count, so nobody can read it back here.",
  throttled: {
    heading: "Throttled now",
    caption: "Counters at their limit",
    none: "Nobody is throttled now.",
    more: "More counters are at their limit than shown here; the soonest to end are listed.",
    limit: "Limit",
    per: "Counted per",
    subject: "Subject (hash)",
    count: "Count / limit",
    since: "Window began",
    until: "Refused until",
    action: "Action",
    lift: "Lift",
    liftLabel: (limit: string, subject: string) => `Lift ${limit} for ${subject}`,
    adminOnly: "Only an administrator may lift a throttle.",
  },
  names: {
    "otp-requester": "Codes sent by one requester to one number",
    "otp-nat-msisdn": "Codes sent from one carrier-NAT address to one number",
    "otp-msisdn": "Codes sent to one number",
    "otp-resend": "New codes requested in one sign-in",
    "otp-ip": "Codes requested from one address",
    "otp-nat-ip": "Codes requested from one carrier-NAT address",
    "client-auth-pair": "Failed client authentications (client and address)",
    "client-auth-ip": "Failed client authentications from one address",
  } as Record<string, string>,
  subjects: {
    "requester-number": "browser or address, and number",
    "address-number": "address and number",
    number: "number",
    request: "sign-in request",
    address: "address",
    "client-address": "client and address",
  } as Record<string, string>,
  locked: {
    heading: "Locked accounts",
    subscribers: (n: number, more: boolean) => n === 0 ? "No subscriber's PIN is locked now."
      : `${more ? "More than " : ""}${n} subscriber${n === 1 && !more ? "'s PIN is" : "s' PINs are"} locked now.`,
    subscribersLink: "Subscribers with a locked PIN",
    staff: "Staff accounts locked after failed sign-ins",
    noStaff: "No staff account is locked.",
    username: "Username",
    until: "Locked until",
  },
  done: { lifted: "Throttle lifted: the counter starts again from zero." } as Record<string, string>,
  errors: { gone: "That counter has already ended or was lifted." } as Record<string, string>,
};

export type LimitMessages = typeof en;

const fr: LimitMessages = {
  title: "Limites anti-abus",
  intro: "Qui est refusé en ce moment par une limite anti-abus, et jusqu'à quand. Les compteurs ne gardent qu'une "
    + "empreinte du numéro ou de l'adresse comptés : personne ne peut la relire ici.",
  throttled: {
    heading: "Limités en ce moment",
    caption: "Compteurs à leur limite",
    none: "Personne n'est limité en ce moment.",
    more: "D'autres compteurs sont à leur limite ; ceux qui se terminent le plus tôt sont listés.",
    limit: "Limite",
    per: "Compté par",
    subject: "Sujet (empreinte)",
    count: "Nombre / limite",
    since: "Début de la fenêtre",
    until: "Refusé jusqu'au",
    action: "Action",
    lift: "Lever",
    liftLabel: (limit, subject) => `Lever ${limit} pour ${subject}`,
    adminOnly: "Seul un administrateur peut lever une limitation.",
  },
  names: {
    "otp-requester": "Codes envoyés par un demandeur à un numéro",
    "otp-nat-msisdn": "Codes envoyés depuis une adresse NAT de l'opérateur à un numéro",
    "otp-msisdn": "Codes envoyés à un numéro",
    "otp-resend": "Nouveaux codes demandés pendant une connexion",
    "otp-ip": "Codes demandés depuis une adresse",
    "otp-nat-ip": "Codes demandés depuis une adresse NAT de l'opérateur",
    "client-auth-pair": "Authentifications de client échouées (client et adresse)",
    "client-auth-ip": "Authentifications de client échouées depuis une adresse",
  },
  subjects: {
    "requester-number": "navigateur ou adresse, et numéro",
    "address-number": "adresse et numéro",
    number: "numéro",
    request: "demande de connexion",
    address: "adresse",
    "client-address": "client et adresse",
  },
  locked: {
    heading: "Comptes bloqués",
    subscribers: (n, more) => n === 0 ? "Aucun code PIN d'abonné n'est bloqué en ce moment."
      : `${more ? "Plus de " : ""}${n} abonné${n === 1 && !more ? " a son code PIN bloqué" : "s ont leur code PIN bloqué"} en ce moment.`,
    subscribersLink: "Abonnés dont le code PIN est bloqué",
    staff: "Comptes du personnel bloqués après des connexions échouées",
    noStaff: "Aucun compte du personnel n'est bloqué.",
    username: "Identifiant",
    until: "Bloqué jusqu'au",
  },
  done: { lifted: "Limitation levée : le compteur repart de zéro." },
  errors: { gone: "Ce compteur a déjà pris fin ou a été levé." },
};

export const limitMessages: Record<"en" | "fr", LimitMessages> = { en, fr };
