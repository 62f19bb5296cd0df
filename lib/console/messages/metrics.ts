/** The console's metrics dashboard (app/console/(app)/metrics); French below mirrors it. */
const en = {
  title: "Metrics",
  intro: "This instance's own figures for the last hour, per minute, sampled every 10 seconds since the process "
    + "started. Each instance of the service shows only its own: Prometheus (GET /metrics) has the whole fleet.",
  off: "Metrics are turned off on this instance (METRICS=off).",
  empty: "No sample yet: the figures appear after the first minute.",
  dataTable: "Data table",
  time: "Time (UTC)",
  noData: "no data",
  perMinute: "per minute",
  milliseconds: "ms",
  charts: {
    requests: { title: "Requests per minute by outcome", desc: "HTTP requests per minute, one line per status class." },
    p50: { title: "Median latency (p50) by endpoint", desc: "Milliseconds, one line per main endpoint; gaps: no request." },
    p95: { title: "95th percentile latency (p95) by endpoint",
      desc: "Milliseconds, one line per main endpoint; gaps: no request." },
    signIns: { title: "Sign-ins per minute by outcome", desc: "Subscriber sign-ins per minute: success, failure, locked." },
    tokens: { title: "Tokens issued per minute by grant", desc: "Token responses per minute, one line per grant type." },
    codes: { title: "Codes sent per minute by channel", desc: "One-time codes sent per minute, one line per channel." },
    throttles: { title: "Throttles per minute by limit", desc: "Requests refused by an abuse limit, per minute." },
  },
  summary: (points: number, last: string) => `${points} ${points === 1 ? "point" : "points"}; the latest ends at ${last} UTC.`,
  nothing: "Nothing recorded in this period.",
};

const fr: typeof en = {
  title: "Métriques",
  intro: "Les chiffres de cette instance seule pour la dernière heure, par minute, relevés toutes les 10 secondes "
    + "depuis le démarrage du processus. Chaque instance du service ne montre que les siens : Prometheus (GET /metrics) "
    + "a ceux de toute la flotte.",
  off: "Les métriques sont désactivées sur cette instance (METRICS=off).",
  empty: "Aucun relevé pour l’instant : les chiffres apparaissent après la première minute.",
  dataTable: "Tableau des données",
  time: "Heure (UTC)",
  noData: "aucune donnée",
  perMinute: "par minute",
  milliseconds: "ms",
  charts: {
    requests: { title: "Requêtes par minute selon le résultat",
      desc: "Requêtes HTTP par minute, une ligne par classe de statut." },
    p50: { title: "Latence médiane (p50) par point d’accès",
      desc: "En millisecondes, une ligne par point d’accès principal ; trous : aucune requête." },
    p95: { title: "Latence au 95e centile (p95) par point d’accès",
      desc: "En millisecondes, une ligne par point d’accès principal ; trous : aucune requête." },
    signIns: { title: "Connexions par minute selon le résultat",
      desc: "Connexions d’abonnés par minute : réussies, échouées, verrouillées." },
    tokens: { title: "Jetons émis par minute selon l’autorisation",
      desc: "Réponses de jetons par minute, une ligne par type d’autorisation." },
    codes: { title: "Codes envoyés par minute selon le canal",
      desc: "Codes à usage unique envoyés par minute, une ligne par canal." },
    throttles: { title: "Limitations par minute selon la limite",
      desc: "Requêtes refusées par une limite anti-abus, par minute." },
  },
  summary: (points: number, last: string) =>
    `${points} ${points === 1 ? "point" : "points"} ; le dernier se termine à ${last} UTC.`,
  nothing: "Rien d’enregistré sur cette période.",
};

export const metricsMessages = { en, fr };
