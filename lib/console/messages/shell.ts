/** The console's frame: navigation, sign-in, sign-out, role refusals (English; French below mirrors it). */
const en = {
  title: "Operator console",
  skip: "Skip to content",
  nav: {
    label: "Console",
    home: "Overview",
    subscribers: "Subscribers",
    clients: "Clients",
    keys: "Signing keys",
    audit: "Audit log",
    limits: "Abuse limits",
    metrics: "Metrics",
    staff: "Staff",
  },
  signedInAs: (username: string, role: string) => `Signed in as ${username} (${role})`,
  roles: { viewer: "viewer", care: "customer care", admin: "administrator" } as Record<string, string>,
  signOut: "Sign out",
  signIn: {
    title: "Staff sign-in",
    intro: "For the operator's staff. Subscribers sign in at the service they use.",
    username: "Username",
    password: "Password",
    code: "Authenticator code",
    codeHelp: "The 6-digit code your authenticator app shows now.",
    submit: "Sign in",
    errors: {
      // One answer for a wrong credential and a locked account, so it does not tell which usernames exist.
      invalid: "The username, password or code is not right. After several failures the account waits 15 minutes.",
      limited: "Too many failed sign-ins from your network. Wait 15 minutes, then try again.",
      expired: "Your console session has ended. Sign in again.",
      csrf: "The form had expired. Try again.",
      cookies: "The console needs cookies. Allow cookies for this site and try again.",
      other: "Sign-in did not work. Try again.",
    } as Record<string, string>,
  },
  forbidden: {
    title: "Not allowed",
    text: (role: string) => `Your role (${role}) may not open this page or do this.`,
  },
  home: {
    intro: "What would you like to do?",
  },
};

export type ShellMessages = typeof en;

const fr: ShellMessages = {
  title: "Console de l'opérateur",
  skip: "Aller au contenu",
  nav: {
    label: "Console",
    home: "Vue d'ensemble",
    subscribers: "Abonnés",
    clients: "Clients",
    keys: "Clés de signature",
    audit: "Journal d'audit",
    limits: "Limites anti-abus",
    metrics: "Métriques",
    staff: "Personnel",
  },
  signedInAs: (username, role) => `Connecté en tant que ${username} (${role})`,
  roles: { viewer: "lecture", care: "service client", admin: "administrateur" },
  signOut: "Se déconnecter",
  signIn: {
    title: "Connexion du personnel",
    intro: "Réservé au personnel de l'opérateur. Les abonnés se connectent depuis le service qu'ils utilisent.",
    username: "Identifiant",
    password: "Mot de passe",
    code: "Code de l'application d'authentification",
    codeHelp: "Le code à 6 chiffres que votre application d'authentification affiche maintenant.",
    submit: "Se connecter",
    errors: {
      invalid: "L'identifiant, le mot de passe ou le code n'est pas correct. Après plusieurs échecs, le compte attend "
        + "15 minutes.",
      limited: "Trop de connexions échouées depuis votre réseau. Attendez 15 minutes, puis réessayez.",
      expired: "Votre session de console a pris fin. Reconnectez-vous.",
      csrf: "Le formulaire avait expiré. Réessayez.",
      cookies: "La console a besoin des cookies. Autorisez les cookies pour ce site et réessayez.",
      other: "La connexion n'a pas abouti. Réessayez.",
    },
  },
  forbidden: {
    title: "Non autorisé",
    text: (role) => `Votre rôle (${role}) ne permet pas d'ouvrir cette page ni de faire cela.`,
  },
  home: {
    intro: "Que souhaitez-vous faire ?",
  },
};

export const shellMessages: Record<"en" | "fr", ShellMessages> = { en, fr };
