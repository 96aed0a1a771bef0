import { SnippetKind, kind, listOf, shortList } from './kind';

/**
 * Build files and server configuration by their structure: a Dockerfile's base image, ports and
 * command; a Makefile's targets; Terraform / HCL blocks; an nginx server block's hosts and routes;
 * an Apache virtual host. None has a maintained parser on npm that runs offline in a save's time
 * (nginx's and Apache's grammars are their own C code), so the directives are read line by line:
 * the formats are line-based, one directive a line.
 */

function lines(text: string): string[] {
  return text
    .slice(0, 50_000)
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** The command of `CMD ["gunicorn", "app:app"]` or `CMD gunicorn app:app`. */
function command(value: string): string {
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed.map(String).join(' ');
  } catch {
    // the shell form
  }
  return value;
}

export function understandDockerfile(text: string): SnippetKind | undefined {
  const instructions = lines(text)
    .map((l) => /^([A-Za-z]+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m);
  const of = (name: string) => instructions.filter((m) => m[1].toUpperCase() === name).map((m) => m[2].trim());
  const bases = of('FROM').map((f) => f.replace(/^--\S+\s+/, '').split(/\s+/)[0]);
  if (!bases.length) return undefined;
  const base = bases[bases.length - 1];
  const run = of('ENTRYPOINT').concat(of('CMD')).map(command);
  const ports = of('EXPOSE').flatMap((e) => e.split(/\s+/));
  const cmd = run.length ? run.join(' ') : undefined;
  const stages = bases.length > 1 ? ` (${bases.length} stages from ${listOf(bases)})` : '';
  return kind(
    `Dockerfile: ${base}${
      cmd
        ? ` running ${cmd
            .split(' ')
            .slice(0, 3)
            .filter((w, i, all) => !all.slice(0, i + 1).some((x) => x.startsWith('-')))
            .join(' ')}`
        : ''
    }`,
    `Dockerfile building on ${base}${stages}${ports.length ? `, exposing ${listOf(ports)}` : ''}${cmd ? `, running "${cmd}"` : ''}`,
    ['docker', 'dockerfile', base.split(/[:@]/)[0].split('/').pop() ?? ''],
  );
}

export function understandMakefile(text: string): SnippetKind | undefined {
  const targets = [...text.matchAll(/^([A-Za-z0-9_][\w./%-]*(?:[ \t]+[A-Za-z0-9_][\w./-]*){0,20})[ \t]*:(?!=)/gm)]
    .flatMap((m) => m[1].split(/\s+/))
    .filter((t) => !t.startsWith('.') && !t.includes('%'));
  if (!targets.length) return undefined;
  const phony = [...text.matchAll(/^\.PHONY[ \t]*:(.*)$/gm)].flatMap((m) => m[1].trim().split(/\s+/));
  return kind(
    `Makefile: ${shortList(targets, 4)}`,
    `Makefile with ${targets.length === 1 ? 'target' : 'targets'} ${listOf(targets, 4)}${phony.length ? ` (phony ${listOf(phony, 3)})` : ''}`,
    ['makefile', 'build', ...targets.slice(0, 3)],
  );
}

export function understandHcl(text: string): SnippetKind | undefined {
  const blocks = [
    ...text.matchAll(/^(resource|data|module|variable|output|provider)[ \t]+"([^"]+)"(?:[ \t]+"([^"]+)")?[ \t]*\{/gm),
  ].map((m) =>
    m[1] === 'resource' || m[1] === 'data'
      ? `${m[1] === 'data' ? 'data.' : ''}${m[2]}.${m[3] ?? ''}`
      : `${m[1]} ${m[2]}`,
  );
  if (!blocks.length) return undefined;
  const providers = [...new Set([...text.matchAll(/^(?:resource|data)[ \t]+"([a-z0-9]+)_/gm)].map((m) => m[1]))];
  return kind(`Terraform: ${shortList(blocks, 2)}`, `Terraform configuration declaring ${listOf(blocks, 3)}`, [
    'terraform',
    'hcl',
    ...providers.slice(0, 2),
  ]);
}

/** A directive's value in an nginx block: `server_name a.example b.example;`. */
function directives(text: string, name: string): string[] {
  return [...text.matchAll(new RegExp(String.raw`(?:^|[{;])[ \t]*${name}[ \t]+([^;{\n]+)[;{]`, 'gm'))].map((m) =>
    m[1].trim(),
  );
}

export function understandNginx(text: string): SnippetKind | undefined {
  const hosts = directives(text, 'server_name')
    .flatMap((v) => v.split(/\s+/))
    .filter((h) => h !== '_');
  const locations = directives(text, 'location').map((v) => v.replace(/^(?:=|~\*?|\^~)\s*/, ''));
  const listens = directives(text, 'listen').map((v) => v.split(/\s+/)[0]);
  const upstreams = directives(text, 'proxy_pass');
  if (!hosts.length && !locations.length && !listens.length) return undefined;
  const host = hosts[0] ?? (listens[0] ? `port ${listens[0]}` : 'server');
  return kind(
    `nginx ${host}${locations.length ? `: ${shortList(locations, 3)}` : ''}`,
    `An nginx server block for ${hosts.length ? listOf(hosts) : 'any host'}${listens.length ? ` listening on ${listOf(listens)}` : ''}${locations.length ? ` with ${locations.length === 1 ? 'location' : 'locations'} ${listOf(locations, 3)}` : ''}${upstreams.length ? `, proxying to ${listOf(upstreams)}` : ''}`,
    ['nginx', 'server', ...hosts.slice(0, 2)],
  );
}

export function understandApache(text: string): SnippetKind | undefined {
  const hosts = [...text.matchAll(/^\s*Server(?:Name|Alias)\s+(\S+)/gim)].map((m) => m[1]);
  const vhosts = [...text.matchAll(/<VirtualHost\s+([^>]+)>/gi)].map((m) => m[1].trim());
  const roots = [...text.matchAll(/^\s*DocumentRoot\s+"?([^"\n]+)"?/gim)].map((m) => m[1].trim());
  const routes = [...text.matchAll(/<(?:Location|Directory)(?:Match)?\s+"?([^">]+)"?>/gi)].map((m) => m[1].trim());
  if (!hosts.length && !vhosts.length && !routes.length) return undefined;
  const host = hosts[0] ?? vhosts[0] ?? 'server';
  return kind(
    `Apache ${host}${routes.length ? `: ${shortList(routes, 2)}` : ''}`,
    `Apache ${vhosts.length ? `virtual host ${listOf(vhosts)}` : 'configuration'}${hosts.length ? ` for ${listOf(hosts)}` : ''}${roots.length ? ` serving ${roots[0]}` : ''}${routes.length ? ` with ${listOf(routes, 3)}` : ''}`,
    ['apache', 'server', ...hosts.slice(0, 2)],
  );
}

/** A logrotate configuration: the logs it rotates, how often and how many it keeps (config-rules.ts's isLogrotate found it). */
export function understandLogrotate(text: string): SnippetKind | undefined {
  const all = lines(text);
  const paths = all.flatMap((l) => {
    const open = /^(.*?)\s*\{$/.exec(l);
    return open && /^(?:\/|")/.test(open[1])
      ? (open[1].match(/"[^"]+"|\S+/g) ?? []).map((p) => p.replace(/^"|"$/g, ''))
      : [];
  });
  if (!paths.length) return undefined;
  const directive = (name: string) => all.find((l) => new RegExp(`^${name}\\b`).test(l));
  const every = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'].find((d) => directive(d));
  const kept = /^rotate\s+(\d+)/.exec(directive('rotate') ?? '')?.[1];
  const size = /^(?:size|maxsize)\s+(\S+)/.exec(directive('size') ?? directive('maxsize') ?? '')?.[1];
  const when = every ?? (size ? `at ${size}` : undefined);
  const how = [when, kept ? `keeps ${kept}` : undefined].filter(Boolean).join(', ');
  const compressed = directive('compress') ? ' compressed' : '';
  return kind(
    `logrotate: ${shortList(paths, 2)}${how ? ` (${how})` : ''}`,
    `logrotate configuration rotating ${listOf(paths, 3)}${when ? ` ${when}` : ''}${kept ? `, keeping ${kept}${compressed} old logs` : ''}${directive('postrotate') ? ', with a postrotate script' : ''}`,
    ['logrotate', 'logs', ...(every ? [every] : [])],
  );
}
