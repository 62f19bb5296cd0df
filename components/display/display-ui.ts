import type { AuthorizationParams } from "@/lib/oauth/authorize/types";

export type Display = AuthorizationParams["display"];

/** Class names of the controls in one display, so the step components stay display-agnostic. */
export interface DisplayUi {
  heading: string;
  text: string;
  muted: string;
  label: string;
  input: string;
  primary: string;
  secondary: string;
  link: string;
  alert: string;
  help: string;
  stack: string;
  row: string;
}

const base = {
  muted: "text-ink-muted",
  help: "mt-1 text-sm text-ink-muted",
  alert: "rounded-md border border-alert-line bg-alert-surface p-3 text-alert-ink",
  link: "underline text-brand-ink",
};

/** OIDC Core §3.1.2.1 `display`: page (default), popup (450×500), touch (large targets), wap (feature phones). */
export const DISPLAY_UI: Record<Display, DisplayUi> = {
  page: {
    ...base,
    heading: "text-2xl font-semibold",
    text: "text-base",
    label: "block text-sm font-medium",
    input: "mt-1 block w-full rounded-lg border border-line px-3 py-2 text-base focus:border-brand focus:ring-2 focus:ring-brand/30",
    primary: "w-full rounded-lg bg-brand px-4 py-2.5 font-semibold text-on-brand hover:bg-brand-hover focus:outline-none focus:ring-2 focus:ring-brand/50 focus:ring-offset-2 focus:ring-offset-surface",
    secondary: "w-full rounded-lg border border-line bg-surface px-4 py-2.5 font-medium text-ink hover:bg-hover-surface",
    stack: "space-y-4",
    row: "grid grid-cols-2 gap-3",
  },
  popup: {
    ...base,
    heading: "text-lg font-semibold",
    text: "text-sm",
    label: "block text-sm font-medium",
    input: "mt-1 block w-full rounded-md border border-line px-2.5 py-1.5 text-sm focus:border-brand",
    primary: "w-full rounded-md bg-brand px-3 py-2 text-sm font-semibold text-on-brand hover:bg-brand-hover",
    secondary: "w-full rounded-md border border-line bg-surface px-3 py-2 text-sm text-ink hover:bg-hover-surface",
    stack: "space-y-3",
    row: "grid grid-cols-2 gap-2",
  },
  touch: {
    ...base,
    help: "mt-2 text-lg text-ink-muted",
    heading: "text-3xl font-bold",
    text: "text-xl",
    label: "block text-xl font-semibold",
    input: "mt-2 block min-h-14 w-full rounded-xl border-2 border-line-strong px-4 py-3 text-2xl focus:border-brand",
    primary: "min-h-14 w-full rounded-xl bg-brand px-5 py-4 text-2xl font-bold text-on-brand active:bg-brand-hover",
    secondary: "min-h-14 w-full rounded-xl border-2 border-line-strong bg-surface px-5 py-4 text-xl font-semibold text-ink active:bg-hover-surface",
    stack: "space-y-6",
    row: "grid grid-cols-1 gap-4",
  },
  wap: {
    muted: "",
    help: "",
    alert: "font-bold",
    link: "underline",
    heading: "text-base font-bold",
    text: "text-sm",
    label: "block text-sm",
    input: "block w-full border border-black px-1 text-sm",
    primary: "min-h-6 min-w-6 border border-black bg-slate-200 px-2 text-sm",
    secondary: "min-h-6 min-w-6 border border-black bg-white px-2 text-sm",
    stack: "space-y-2",
    row: "",
  },
};
