/** The console's signing keys page (English; French below mirrors it). */
const en = {
  title: "Signing keys",
  intro: "The service's keys per use: the next key is published before it signs, the active key signs (or decrypts), "
    + "a retired key stays published until the tokens it signed have expired (its remove-after time).",
  uses: { sig: "Signing (sig)", enc: "Encryption (enc)" } as Record<string, string>,
  caption: (use: string) => `Keys for ${use}, oldest first`,
  empty: "No keys yet (they are created on first start).",
  columns: { kid: "Key ID", alg: "Algorithm", status: "Status", created: "Created", activated: "Activated", retired: "Retired",
    removeAfter: "Remove after", published: "In the JWKS", actions: "Actions" },
  status: { next: "next", active: "active", retired: "retired" } as Record<string, string>,
  yes: "yes",
  no: "no",
  rotate: {
    submit: (use: string) => `Rotate the ${use} key`,
    note: "The next key becomes active at once (it is already published), the active one is retired, a new next key "
      + "is published.",
  },
  unpublish: {
    submit: "Remove from the JWKS now",
    confirm: (kid: string) => `I understand: tokens signed by ${kid} (id tokens, logout tokens) will no longer verify `
      + "at relying parties, and hints encrypted to it can no longer be read.",
  },
  done: {
    rotated: "The key was rotated. The new active key is used at once by this instance and by others within 60 seconds.",
    unpublished: "The key was removed from the JWKS.",
  } as Record<string, string>,
  errors: { confirm: "Tick the confirmation to remove a key early." } as Record<string, string>,
};

export type KeysMessages = typeof en;

const fr: KeysMessages = {
  title: "Clés de signature",
  intro: "Les clés du service par usage : la clé suivante est publiée avant de signer, la clé active signe (ou "
    + "déchiffre), une clé retirée reste publiée jusqu'à l'expiration des jetons qu'elle a signés (son heure de retrait).",
  uses: { sig: "Signature (sig)", enc: "Chiffrement (enc)" },
  caption: (use) => `Clés pour ${use}, de la plus ancienne à la plus récente`,
  empty: "Aucune clé pour l'instant (elles sont créées au premier démarrage).",
  columns: { kid: "Identifiant de clé", alg: "Algorithme", status: "État", created: "Créée le", activated: "Activée le",
    retired: "Retirée le", removeAfter: "Retrait après", published: "Dans le JWKS", actions: "Actions" },
  status: { next: "suivante", active: "active", retired: "retirée" },
  yes: "oui",
  no: "non",
  rotate: {
    submit: (use) => `Renouveler la clé ${use}`,
    note: "La clé suivante devient active aussitôt (elle est déjà publiée), l'active est retirée, une nouvelle clé "
      + "suivante est publiée.",
  },
  unpublish: {
    submit: "Retirer du JWKS maintenant",
    confirm: (kid) => `Je comprends : les jetons signés par ${kid} (jetons d'identité, de déconnexion) ne seront plus `
      + "vérifiables par les fournisseurs de services, et les indices chiffrés pour elle ne pourront plus être lus.",
  },
  done: {
    rotated: "La clé a été renouvelée. La nouvelle clé active sert aussitôt sur cette instance, et sous 60 secondes sur les autres.",
    unpublished: "La clé a été retirée du JWKS.",
  },
  errors: { confirm: "Cochez la confirmation pour retirer une clé en avance." },
};

export const keysMessages: Record<"en" | "fr", KeysMessages> = { en, fr };
