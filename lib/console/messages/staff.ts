/**
 * The staff page (app/console/(app)/staff): members and their credentials (English; French below mirrors it).
 * The roles' names are the console frame's (lib/console/messages/shell.ts).
 */
const en = {
  title: "Staff",
  intro: "The operator's staff who may use this console. Only administrators see this page.",
  list: {
    caption: "Staff members",
    username: "Username",
    role: "Role",
    status: "Status",
    lockedUntil: "Locked until",
    lastSignIn: "Last sign-in",
    actions: "Actions",
    enabled: "enabled",
    disabled: "disabled",
    never: "never",
    none: "—",
    you: "(you)",
    empty: "No staff members.",
  },
  create: {
    title: "Add a member",
    username: "Username",
    usernameHelp: "2 to 63 characters: lower-case letters, digits, '.', '_' or '-'.",
    role: "Role",
    submit: "Create member",
  },
  roleChange: { label: (username: string) => `New role for ${username}`, submit: "Change role" },
  disable: { submit: "Disable" },
  enable: { submit: "Enable" },
  reset: { submit: "Reset password and code" },
  unlock: "Lift lockout",
  done: {
    role: "The role was changed; the member's sessions have ended.",
    disabled: "The member was disabled; their sessions have ended.",
    enabled: "The member was enabled (and any lockout lifted).",
  } as Record<string, string>,
  errors: {
    self: "You cannot disable yourself or take away your own administrator role. Ask another administrator.",
    last_admin: "Refused: the console must keep at least one enabled administrator.",
    username: "The username must be 2 to 63 characters: lower-case letters, digits, '.', '_' or '-'.",
    role: "Choose a role: viewer, customer care or administrator.",
    exists: "A member with this username exists.",
    unknown: "There is no such member.",
  } as Record<string, string>,
  shown: {
    createdTitle: (username: string) => `Member ${username} created`,
    resetTitle: (username: string) => `New credentials for ${username}`,
    note: "Shown only this once: give them to the member over a safe channel. The member adds the TOTP URI "
      + "(or the secret) to an authenticator app and signs in with the password and the app's code.",
    username: "Username",
    password: "Password",
    totpSecret: "TOTP secret",
    totpUri: "TOTP URI",
    back: "Back to the staff page",
  },
};

export type StaffMessages = typeof en;

const fr: StaffMessages = {
  title: "Personnel",
  intro: "Les membres du personnel de l'opérateur qui peuvent utiliser cette console. Seuls les administrateurs voient cette page.",
  list: {
    caption: "Membres du personnel",
    username: "Identifiant",
    role: "Rôle",
    status: "État",
    lockedUntil: "Bloqué jusqu'à",
    lastSignIn: "Dernière connexion",
    actions: "Actions",
    enabled: "actif",
    disabled: "désactivé",
    never: "jamais",
    none: "—",
    you: "(vous)",
    empty: "Aucun membre du personnel.",
  },
  create: {
    title: "Ajouter un membre",
    username: "Identifiant",
    usernameHelp: "De 2 à 63 caractères : lettres minuscules, chiffres, « . », « _ » ou « - ».",
    role: "Rôle",
    submit: "Créer le membre",
  },
  roleChange: { label: (username) => `Nouveau rôle pour ${username}`, submit: "Changer le rôle" },
  disable: { submit: "Désactiver" },
  enable: { submit: "Réactiver" },
  reset: { submit: "Réinitialiser mot de passe et code" },
  unlock: "Lever le blocage",
  done: {
    role: "Le rôle a été changé ; les sessions du membre ont pris fin.",
    disabled: "Le membre a été désactivé ; ses sessions ont pris fin.",
    enabled: "Le membre a été réactivé (et un éventuel blocage levé).",
  },
  errors: {
    self: "Vous ne pouvez ni vous désactiver ni retirer votre propre rôle d'administrateur. Demandez à un autre administrateur.",
    last_admin: "Refusé : la console doit garder au moins un administrateur actif.",
    username: "L'identifiant doit compter de 2 à 63 caractères : lettres minuscules, chiffres, « . », « _ » ou « - ».",
    role: "Choisissez un rôle : lecture, service client ou administrateur.",
    exists: "Un membre avec cet identifiant existe déjà.",
    unknown: "Ce membre n'existe pas.",
  },
  shown: {
    createdTitle: (username) => `Membre ${username} créé`,
    resetTitle: (username) => `Nouveaux identifiants pour ${username}`,
    note: "Affichés cette seule fois : transmettez-les au membre par un moyen sûr. Le membre ajoute l'URI TOTP "
      + "(ou le secret) à une application d'authentification et se connecte avec le mot de passe et le code de l'application.",
    username: "Identifiant",
    password: "Mot de passe",
    totpSecret: "Secret TOTP",
    totpUri: "URI TOTP",
    back: "Retour à la page du personnel",
  },
};

export const staffMessages: Record<"en" | "fr", StaffMessages> = { en, fr };
