/**
 * The applets Trove serves, by the plugins' OSAppletEnum type, and the view of the web app each
 * one opens (docs/APP.md, "How the plugins reach it"). The browser app at `/` on Trove's own port is the
 * fourth role: all three views with navigation.
 */
export const APPLET_VIEWS = {
  COPILOT: 'copilot',
  SAVED_MATERIALS: 'drive',
  FUTURE_APPLET_MODULE_PLACEHOLDER_A: 'settings',
} as const;

export type AppletType = keyof typeof APPLET_VIEWS;
export type AppletView = (typeof APPLET_VIEWS)[AppletType];

export function isServedApplet(type: string): type is AppletType {
  return Object.prototype.hasOwnProperty.call(APPLET_VIEWS, type);
}
