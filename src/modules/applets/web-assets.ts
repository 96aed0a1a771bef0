import { Logger } from '@nestjs/common';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Where `npm run build:web` writes the app (web/dist), from src/ (tests) and from dist/src/ (npm start). */
const CANDIDATES = [resolve(__dirname, '../../../web/dist'), resolve(__dirname, '../../../../web/dist')];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** One file of the app, kept in memory with its gzip encoding. */
export interface WebFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  /** Named by its content hash (Vite's assets/): cached for a year. */
  immutable: boolean;
}

/**
 * The built web app, read once at boot: a few hundred kilobytes, served from memory (gzipped
 * once here), so a request names a file only by a key of this map, never by a path on disk.
 * `index` is the page with the view the port serves written into its `trove-view` meta tag.
 * One process reads it once for all its apps (a team deployment makes an app per open store),
 * again only when the build's index.html changed.
 */
export class WebAssets {
  private static loaded: { root: string; built: number; assets: WebAssets } | null = null;

  private constructor(
    readonly root: string,
    private readonly files: Map<string, WebFile>,
    private readonly page: string,
  ) {}

  static load(): WebAssets | null {
    const root = CANDIDATES.find((dir) => existsSync(join(dir, 'index.html')));
    if (!root) {
      new Logger('WebApp').warn('the web app is not built (web/dist is missing): run `npm run build:web`');
      return null;
    }
    const built = statSync(join(root, 'index.html')).mtimeMs;
    const loaded = WebAssets.loaded;
    if (loaded?.root === root && loaded.built === built) return loaded.assets;
    const files = new Map<string, WebFile>();
    for (const path of walk(root)) {
      const name = relative(root, path).split('\\').join('/');
      if (name === 'index.html') continue;
      const body = readFileSync(path);
      const type = TYPES[extname(name)] ?? 'application/octet-stream';
      const compressible = /^(text\/|image\/svg|application\/json)/.test(type) && body.length > 512;
      files.set(name, {
        body,
        gzip: compressible ? gzipSync(body, { level: 9 }) : null,
        type,
        immutable: name.startsWith('assets/'),
      });
    }
    const assets = new WebAssets(root, files, readFileSync(join(root, 'index.html'), 'utf8'));
    WebAssets.loaded = { root, built, assets };
    return assets;
  }

  file(name: string): WebFile | undefined {
    return this.files.get(name);
  }

  /** The page for one view, with the nonce its style element carries (`view` and `nonce` are ours: a role name, base64). */
  index(view: string, nonce: string): string {
    return this.page
      .replace(/(<meta name="trove-view" content=")[^"]*(")/, `$1${view}$2`)
      .replace(/(<meta name="trove-nonce" content=")[^"]*(")/, `$1${nonce}$2`);
  }
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
