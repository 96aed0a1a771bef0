/**
 * The host's theme (the `theme` URL parameter and `setTheme` messages): colours as ARGB
 * integers, which the plugins compute with 32-bit shifts, so an opaque colour arrives negative.
 * Only numbers become CSS here: a theme cannot inject anything.
 */
export interface HostTheme {
  darkMode?: boolean;
  primary?: number;
  onPrimary?: number;
  secondary?: number;
  onSecondary?: number;
  surface?: number;
  onSurface?: number;
  primaryContainer?: number;
  scaffoldBackgroundColor?: number;
  error?: number;
}

/** `#rrggbb` (or `#rrggbbaa` when not opaque) from an ARGB integer, signed or not; null when it is not one. */
export function argbToCss(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -0x80000000 || value > 0xffffffff) return null;
  const argb = value >>> 0;
  const a = (argb >>> 24) & 0xff;
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  const rgb = `#${hex((argb >>> 16) & 0xff)}${hex((argb >>> 8) & 0xff)}${hex(argb & 0xff)}`;
  return a === 0xff ? rgb : `${rgb}${hex(a)}`;
}

/** Parses the `theme` parameter (JSON); anything else is no theme. */
export function parseTheme(text: string | null): HostTheme | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as HostTheme) : null;
  } catch {
    return null;
  }
}

/** The CSS custom properties a host theme sets (the app's own palette fills the rest). */
export function themeVariables(theme: HostTheme): Record<string, string> {
  const vars: Record<string, string> = {};
  const set = (name: string, value: unknown) => {
    const css = argbToCss(value);
    if (css) vars[name] = css;
  };
  set('--bg', theme.scaffoldBackgroundColor);
  set('--fg', theme.onSurface ?? theme.onPrimary);
  set('--border', theme.secondary);
  set('--border-strong', theme.primaryContainer);
  set('--danger', theme.error);
  return vars;
}

/** Dark or light: the theme's `darkMode`, else the browser's preference. */
export function isDark(theme: HostTheme | null, prefersDark: boolean): boolean {
  return typeof theme?.darkMode === 'boolean' ? theme.darkMode : prefersDark;
}

const APPLIED: string[] = [];

/** Applies a theme to the document: the `dark` / `light` class and the host's colours. */
export function applyTheme(theme: HostTheme | null, root: HTMLElement = document.documentElement): void {
  const prefersDark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  const dark = isDark(theme, prefersDark);
  root.dataset.theme = dark ? 'dark' : 'light';
  for (const name of APPLIED.splice(0)) root.style.removeProperty(name);
  for (const [name, value] of Object.entries(theme ? themeVariables(theme) : {})) {
    root.style.setProperty(name, value);
    APPLIED.push(name);
  }
}
