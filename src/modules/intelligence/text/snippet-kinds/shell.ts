import { parse as parseShell } from 'shell-quote';
import { SnippetKind, kind, listOf, shortList, shown } from './kind';

/**
 * Shell commands and pipelines, HTTP calls with curl, wget and HTTPie: the tool and what it does
 * with what (`docker run redis:7-alpine as "cache"`, `curl POST https://api.example.com/users`),
 * from the words shell-quote splits a command line into.
 */

/** Tools whose first word after options is a subcommand (`docker run`, `git clone`, `npm install`). */
const WITH_SUBCOMMAND = new Set(
  `docker podman docker-compose kubectl helm git gh npm pnpm yarn bun pip pip3 pipx uv poetry cargo go rustup brew apt apt-get dnf yum
  apk snap systemctl terraform aws gcloud az heroku vercel flyctl minikube kind nerdctl composer gem bundle dotnet mvn gradle
  conda deno npx firebase wrangler`.split(/\s+/),
);

/** Options of docker / podman that take a value (so the value is not the image). */
const DOCKER_VALUED = new Set(
  `-p --publish -e --env --env-file -v --volume --name -w --workdir -u --user --network --net -l --label --mount --entrypoint
  --restart -m --memory --cpus -h --hostname --add-host --platform --pull --log-driver --log-opt --health-cmd --device --cap-add
  --cap-drop --security-opt --ulimit --expose --link --dns --tmpfs --gpus --shm-size -f --file -t --tag --build-arg --target`.split(
    /\s+/,
  ),
);

/** curl options that take a value (so the value is not the URL). */
const CURL_VALUED = new Set(
  `-X --request -H --header -d --data --data-raw --data-binary --data-urlencode --json -F --form -u --user -o --output -A
  --user-agent -e --referer -b --cookie -c --cookie-jar --cacert --cert --key -m --max-time --connect-timeout -w --write-out -x
  --proxy --resolve -T --upload-file --retry -K --config`.split(/\s+/),
);

type Word = string;

/** A command line's commands, each a list of words, and the operators between them. */
interface Line {
  commands: Word[][];
  operators: string[];
}

function splitLine(line: string): Line | undefined {
  let tokens: ReturnType<typeof parseShell>;
  try {
    tokens = parseShell(line, (key) => `$${key}`);
  } catch {
    return undefined;
  }
  const commands: Word[][] = [[]];
  const operators: string[] = [];
  for (const token of tokens) {
    if (typeof token === 'string') commands[commands.length - 1].push(token);
    else if ('op' in token && token.op !== 'glob') {
      if (['<', '>', '>>', '<(', '>&', '2>'].includes(token.op)) continue;
      operators.push(token.op);
      commands.push([]);
    } else if ('comment' in token) break;
    else if ('pattern' in token) commands[commands.length - 1].push(token.pattern);
  }
  const kept = commands.map(strip).filter((c) => c.length > 0);
  return kept.length ? { commands: kept, operators } : undefined;
}

/** Without `sudo`, `env`, `VAR=value` assignments, `time`, `exec` and a `$ ` prompt. */
function strip(words: Word[]): Word[] {
  let i = 0;
  while (
    i < words.length &&
    (/^(?:\$|sudo|env|time|exec|nohup|command)$/.test(words[i]) ||
      /^[A-Za-z_]\w*=/.test(words[i]) ||
      (words[i - 1] === 'sudo' && words[i].startsWith('-')))
  )
    i++;
  return words.slice(i);
}

/** The first word that is not an option (nor the value of an option in `valued`). */
function operand(words: Word[], valued: ReadonlySet<string> = new Set()): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--') return words[i + 1];
    if (w.startsWith('-')) {
      if (valued.has(w)) i++;
      continue;
    }
    return w;
  }
  return undefined;
}

function valueOf(words: Word[], ...options: string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    for (const option of options) {
      if (w === option) return words[i + 1];
      if (option.startsWith('--') && w.startsWith(`${option}=`)) return w.slice(option.length + 1);
    }
  }
  return undefined;
}

function tool(words: Word[]): string {
  return words[0].replace(/^.*\//, '');
}

/** An HTTP call's method and URL: curl, wget, HTTPie (`http POST url`). */
function httpCall(words: Word[]): { method: string; url: string; tool: string; sends?: string } | undefined {
  const name = tool(words);
  const args = words.slice(1);
  if (name === 'curl') {
    const url = args.find((w) => /^https?:\/\//.test(w)) ?? operand(args, CURL_VALUED);
    if (!url) return undefined;
    const data = args.some((w) => /^(?:-d|--data(?:-raw|-binary|-urlencode)?|--json|-F|--form)(?:=|$)/.test(w));
    const json =
      args.includes('--json') ||
      args.some((w, i) => /^(?:-H|--header)$/.test(args[i - 1] ?? '') && /content-type:\s*application\/json/i.test(w));
    const method = (
      valueOf(args, '-X', '--request') ??
      (data ? 'POST' : args.includes('-I') || args.includes('--head') ? 'HEAD' : 'GET')
    ).toUpperCase();
    return { method, url, tool: 'curl', sends: data ? (json ? 'JSON' : 'data') : undefined };
  }
  if (name === 'wget') {
    const url = args.find((w) => /^https?:\/\//.test(w));
    return url ? { method: args.some((w) => w.startsWith('--post')) ? 'POST' : 'GET', url, tool: 'wget' } : undefined;
  }
  if (name === 'http' || name === 'https' || name === 'xh') {
    const rest = args.filter((w) => !w.startsWith('-'));
    const method = /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(rest[0] ?? '') ? rest.shift()! : undefined;
    const url = rest[0];
    if (!url) return undefined;
    const sends = rest.slice(1).some((w) => /^[\w.-]+:?=/.test(w)) ? 'JSON' : undefined;
    return {
      method: method ?? (sends ? 'POST' : 'GET'),
      url: /^[:/]|^https?:/.test(url) ? url : `${name}://${url}`,
      tool: 'HTTPie',
      sends,
    };
  }
  return undefined;
}

/** `docker run redis:7-alpine as "cache"`, `git clone https://…`, `npm install express`, `grep ERROR app.log`. */
function commandName(words: Word[]): { name: string; what: string; tags: string[] } {
  const name = tool(words);
  const http = httpCall(words);
  if (http)
    return {
      name: `${http.tool} ${http.method} ${shown(http.url, 60)}`,
      what: `${http.method} ${http.url}`,
      tags: ['http', http.tool, http.method],
    };
  const args = words.slice(1);
  if ((name === 'docker' || name === 'podman' || name === 'nerdctl') && ['run', 'create'].includes(args[0])) {
    const rest = args.slice(1);
    const image = operand(rest, DOCKER_VALUED);
    const container = valueOf(rest, '--name');
    const ports = rest.flatMap((w, i) => (/^(?:-p|--publish)$/.test(rest[i - 1] ?? '') ? [w] : []));
    const title = `${name} ${args[0]} ${image ?? ''}${container ? ` as "${container}"` : ''}`.trim();
    const what = `${args[0] === 'run' ? 'runs' : 'creates'} the ${image ?? ''} container${container ? ` "${container}"` : ''}${ports.length ? ` publishing ${listOf(ports)}` : ''}`;
    return {
      name: title,
      what,
      tags: [name, 'container', ...(image ? [image.split(/[:@]/)[0].split('/').pop() ?? ''] : [])],
    };
  }
  if (WITH_SUBCOMMAND.has(name)) {
    const sub = operand(args, name === 'docker' || name === 'kubectl' ? DOCKER_VALUED : undefined);
    const afterSub = sub ? args.slice(args.indexOf(sub) + 1) : [];
    const target =
      (name === 'kubectl' || name === 'helm') && valueOf(afterSub, '-f', '--filename')
        ? valueOf(afterSub, '-f', '--filename')
        : operand(afterSub, DOCKER_VALUED);
    const text = [name, sub, target].filter(Boolean).join(' ');
    return {
      name: text,
      what: `runs ${[name, sub].filter(Boolean).join(' ')}${target ? ` on ${target}` : ''}`,
      tags: [name, ...(sub ? [sub] : [])],
    };
  }
  const target = operand(args);
  return {
    name: [name, ...args.slice(0, 3)].join(' '),
    what: `runs ${name}${target ? ` on ${target}` : ''}`,
    tags: [name],
  };
}

/** Logical lines: continuations (`\` at the end) joined, comments and blank lines left out. */
function logicalLines(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** Lines that make a shell script rather than a list of commands. */
const CONTROL =
  /^(?:if|then|else|elif|fi|for|while|until|do|done|case|esac|function|\w+\s*\(\)\s*\{?|\{|\}|local|return|set|trap|shift|read)\b/;

export function understandShell(text: string): SnippetKind | undefined {
  const lines = logicalLines(text.slice(0, 20_000));
  if (!lines.length) return undefined;
  const parsed = lines
    .slice(0, 60)
    .map(splitLine)
    .filter((l): l is Line => !!l);
  const commands = parsed.flatMap((l) => l.commands);
  if (!commands.length) return undefined;
  const tools = commands
    .map(tool)
    .filter(
      (t) => /^[\w.+-]+$/.test(t) && !/^(?:echo|printf|cd|export|true|false|test|exit|return|set|shift|\[)$/.test(t),
    );
  // a header comment (not a licence's) says what the snippet is for: code-terms.ts names and describes it by it
  const header =
    /^(?:#![^\n]*\n)?(?:[ \t]*(?:#[^\n]*(?:copyright|licen[cs]e|shellcheck|-\*-|vim?:)[^\n]*)?\n)*[ \t]*#(?!!)[ \t]*([^\n]*)/i.exec(
      text,
    )?.[1] ?? '';
  if (/[A-Za-z]{3,}[^\n]*\s[A-Za-z]{2,}/.test(header)) return undefined;
  const isScript = lines.length > 6 || lines.some((l) => CONTROL.test(l));
  if (isScript) {
    const lineCount = text.split('\n').filter((l) => l.trim()).length;
    // the commands it runs most, then first
    const counts = new Map<string, number>();
    for (const t of tools) if (!CONTROL.test(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    const used = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)!);
    const http = commands.map(httpCall).find(Boolean);
    return kind(
      used.length ? `shell script: ${shortList(used, 3)}` : undefined,
      `Shell script of ${lineCount} lines${used.length ? ` running ${listOf(used, 4)}` : ''}${http ? `, calling ${http.method} ${shown(http.url, 60)}` : ''}`,
      ['shell', ...used.slice(0, 4)],
    );
  }
  const first = parsed[0];
  const main = commandName(first.commands[0]);
  const http = httpCall(first.commands[0]);
  if (first.commands.length > 1 && first.operators.every((op) => op === '|') && parsed.length === 1) {
    const stages = first.commands.map(tool);
    // an HTTP call piped on (`curl -s URL | jq .`): named by its method and URL, then the tools it goes through
    if (http) {
      const through = stages.slice(1);
      return kind(
        [`${http.method} ${shown(http.url, 60)}`, ...through].join(' | '),
        `HTTP ${http.method} request to ${shown(http.url, 100)} with ${http.tool}${http.sends ? `, sending ${http.sends}` : ''}, piped through ${listOf(through, 4)}`,
        [...main.tags, ...through.slice(0, 2)],
      );
    }
    const operands = first.commands[0].slice(1).filter((w) => !w.startsWith('-'));
    const input = operands.length > 1 ? operands[operands.length - 1] : undefined;
    return kind(
      first.commands.map((c) => c.slice(0, 3).join(' ')).join(' | '),
      `Shell pipeline of ${listOf(stages, 4)}${input ? ` over ${input}` : ''}`,
      ['shell', 'pipeline', ...stages.slice(0, 3)],
    );
  }
  if (http) {
    return kind(
      main.name,
      `HTTP ${http.method} request to ${shown(http.url, 100)} with ${http.tool}${http.sends ? `, sending ${http.sends}` : ''}`,
      main.tags,
    );
  }
  // a container run is named by its image and name; other commands as typed, by their first line
  // (code-terms.ts: `npm install --save-dev typescript`), which says what they do as well as a rewording
  if (commands.length === 1 && main.tags.includes('container'))
    return kind(main.name, `Shell command that ${main.what}`, ['shell', ...main.tags]);
  return undefined;
}
