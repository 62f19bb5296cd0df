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
  muted: "text-slate-600",
  help: "mt-1 text-sm text-slate-600",
  alert: "rounded-md border border-red-300 bg-red-50 p-3 text-red-800",
  link: "underline text-blue-800",
};

/** OIDC Core §3.1.2.1 `display`: page (default), popup (450×500), touch (large targets), wap (feature phones). */
export const DISPLAY_UI: Record<Display, DisplayUi> = {
  page: {
    ...base,
    heading: "text-2xl font-semibold",
    text: "text-base",
    label: "block text-sm font-medium",
    input: "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-base focus:border-blue-700 focus:ring-2 focus:ring-blue-200",
    primary: "w-full rounded-lg bg-blue-700 px-4 py-2.5 font-semibold text-white hover:bg-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-300",
    secondary: "w-full rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-medium text-slate-800 hover:bg-slate-100",
    stack: "space-y-4",
    row: "grid grid-cols-2 gap-3",
  },
  popup: {
    ...base,
    heading: "text-lg font-semibold",
    text: "text-sm",
    label: "block text-sm font-medium",
    input: "mt-1 block w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-sm focus:border-blue-700",
    primary: "w-full rounded-md bg-blue-700 px-3 py-2 text-sm font-semibold text-white hover:bg-blue-800",
    secondary: "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 hover:bg-slate-100",
    stack: "space-y-3",
    row: "grid grid-cols-2 gap-2",
  },
  touch: {
    ...base,
    help: "mt-2 text-lg text-slate-600",
    heading: "text-3xl font-bold",
    text: "text-xl",
    label: "block text-xl font-semibold",
    input: "mt-2 block min-h-14 w-full rounded-xl border-2 border-slate-400 px-4 py-3 text-2xl focus:border-blue-700",
    primary: "min-h-14 w-full rounded-xl bg-blue-700 px-5 py-4 text-2xl font-bold text-white active:bg-blue-900",
    secondary: "min-h-14 w-full rounded-xl border-2 border-slate-400 bg-white px-5 py-4 text-xl font-semibold text-slate-800 active:bg-slate-200",
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
