/** AppletServingHandlerType: what serves the applet (here: Trove's web app). */
export class AppletServingHandlerWire {
  type: string;
  isFolder: boolean;
  version: string;
}

/** ActiveOSServerApplet: where the applet is served, a port of its own (the plugins route messages by port). */
export class ActiveOSServerAppletWire {
  type: string;
  port: number;
  handler: AppletServingHandlerWire;
}
