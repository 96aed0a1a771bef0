/**
 * The Content-Security-Policy of the web app's page: scripts and styles only from Trove's own
 * files (no inline script, no eval), connections only to Trove itself (HTTP and WebSocket on
 * the same origin), nothing fetched from anywhere else, and framing allowed only by the hosts
 * the editor plugins run in (VS Code's and Cursor's webviews, Obsidian, JetBrains' JCEF pages
 * on localhost, Visual Studio's WebView2 on localhost) plus the configured CORS origins.
 */
const PLUGIN_HOSTS = [
  "'self'",
  'vscode-webview:',
  'vscode-file:',
  'app://obsidian.md',
  'http://localhost:*',
  'http://127.0.0.1:*',
  'https://localhost:*',
  'https://127.0.0.1:*',
];

/** A CORS origin as a CSP source: `vscode-webview://*` is the scheme, `http://localhost` any of its ports. */
function asSource(origin: string): string[] {
  if (origin === '*') return ['*'];
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/\*$/i.exec(origin);
  if (scheme) return [`${scheme[1]}:`];
  if (!/[\s;,']/.test(origin)) return /:\d+$/.test(origin) || origin.endsWith('*') ? [origin] : [origin, `${origin}:*`];
  return [];
}

/**
 * `styleNonce`: CodeMirror writes its styles into one <style> element, which carries this
 * page's nonce (read from the page's `trove-nonce` meta tag); no other inline style element runs.
 */
export function contentSecurityPolicy(corsOrigins: string[], styleNonce: string): string {
  const ancestors = [...new Set([...PLUGIN_HOSTS, ...corsOrigins.flatMap(asSource)])];
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    // CodeMirror positions and sizes some of its elements with style attributes.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.join(' ')}`,
  ].join('; ');
}
