/** The console's audit log page (every role). */
const en = {
  title: "Audit log",
  intro: "Newest first. Subscribers appear only as their pseudonym; staff by username. Times are UTC.",
  filter: {
    legend: "Filter",
    from: "From (UTC)",
    to: "Until (UTC)",
    type: "Event type",
    typeHelp: "e.g. sign_in, pin_lockout, console_subscribers_suspend",
    client: "Client ID",
    outcome: "Outcome",
    subscriber: "Subscriber pseudonym",
    any: "Any",
    submit: "Show",
    clear: "Clear the filter",
    bad: "A time is not valid: use the date and time fields (years 2000 to 9999), and the page links as given.",
  },
  outcomes: { success: "success", failure: "failure", denied: "denied", locked: "locked", throttled: "throttled" } as
    Record<string, string>,
  table: {
    caption: "Audit events",
    at: "When",
    type: "Event",
    outcome: "Outcome",
    subscriber: "Subscriber (pseudonym)",
    client: "Client",
    staff: "Staff",
    ip: "Address",
    detail: "Detail",
    unknownStaff: "(removed)",
  },
  empty: "No audit events match.",
  next: "Older events",
  first: "Newest events",
};

export type AuditMessages = typeof en;

const fr: AuditMessages = {
  title: "Journal d'audit",
  intro: "Du plus récent au plus ancien. Les abonnés n'apparaissent que sous leur pseudonyme ; le personnel par son "
    + "identifiant. Heures en UTC.",
  filter: {
    legend: "Filtrer",
    from: "Depuis (UTC)",
    to: "Jusqu'à (UTC)",
    type: "Type d'événement",
    typeHelp: "par exemple sign_in, pin_lockout, console_subscribers_suspend",
    client: "Identifiant du client",
    outcome: "Résultat",
    subscriber: "Pseudonyme de l'abonné",
    any: "Tous",
    submit: "Afficher",
    clear: "Effacer le filtre",
    bad: "Une heure n'est pas valide : utilisez les champs de date et d'heure (années 2000 à 9999), et les liens "
      + "de page tels quels.",
  },
  outcomes: { success: "réussite", failure: "échec", denied: "refusé", locked: "bloqué", throttled: "limité" },
  table: {
    caption: "Événements d'audit",
    at: "Quand",
    type: "Événement",
    outcome: "Résultat",
    subscriber: "Abonné (pseudonyme)",
    client: "Client",
    staff: "Personnel",
    ip: "Adresse",
    detail: "Détail",
    unknownStaff: "(supprimé)",
  },
  empty: "Aucun événement ne correspond.",
  next: "Événements plus anciens",
  first: "Événements les plus récents",
};

export const auditMessages: Record<"en" | "fr", AuditMessages> = { en, fr };
