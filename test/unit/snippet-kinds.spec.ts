import { matchConfigFormat } from '../../src/modules/intelligence/language/config-rules';
import { understandSnippet } from '../../src/modules/intelligence/text/snippet-kinds';
import { listOf } from '../../src/modules/intelligence/text/snippet-kinds/kind';

/** The pure parts of issue 45 items 1 and 2: what a snippet that defines nothing is about, and the configuration formats' rules. */
describe('snippet kinds', () => {
  it('SQL: what a statement changes, and only statements that say something', () => {
    expect(
      understandSnippet("SET NAMES utf8;\nUPDATE users SET active = false WHERE last_login < '2025-01-01';\n", 'sql'),
    ).toMatchObject({
      name: 'update users set active',
      description: 'SQL statement that updates users (active) and 1 more statement.',
    });
    expect(understandSnippet('DROP TABLE IF EXISTS sessions;\n', 'sql')?.name).toBe('drop table sessions');
    expect(understandSnippet('INSERT INTO events (kind, at) VALUES (1, 2);', 'sql')?.name).toBe('insert into events');
    // not SQL any parser reads: named as before (code-terms.ts)
    expect(understandSnippet('this is not ( a query', 'sql')).toBeUndefined();
  });

  it('shell: HTTPie, a pipeline, a list of commands, a script by the commands it runs most', () => {
    expect(understandSnippet('http POST example.org/api/items name=lamp', 'sh')?.name).toBe(
      'HTTPie POST http://example.org/api/items',
    );
    expect(understandSnippet('grep -c ERROR app.log | sort -n', 'sh')?.description).toBe(
      'Shell pipeline of grep and sort over app.log.',
    );
    // commands as typed are named by their first line (code-terms.ts), which says it as well
    expect(understandSnippet('git clone https://example.org/x.git\ncd x\nnpm ci', 'sh')).toBeUndefined();
    const script =
      '#!/bin/sh\nset -e\nif [ -n "$1" ]; then\n  apt-get update\nfi\napt-get install -y curl\ncurl -fsSL https://example.org/install | sh\nsystemctl restart app\n';
    expect(understandSnippet(script, 'sh')?.name).toBe('shell script: apt-get, curl, sh, …');
    // a header comment names a script better than its commands (code-terms.ts reads it)
    expect(
      understandSnippet(`#!/bin/sh\n# Rotate the backups.\n${script.split('\n').slice(1).join('\n')}`, 'sh')?.name,
    ).toBeUndefined();
  });

  it('shell: an HTTP call piped on is named by its method and URL, then the tools it goes through', () => {
    const curl = understandSnippet(
      'curl -fsSL -H "Accept: application/json" https://api.example.com/v1/items | jq .',
      'sh',
    );
    expect(curl).toEqual({
      name: 'GET https://api.example.com/v1/items | jq',
      description: 'HTTP GET request to https://api.example.com/v1/items with curl, piped through jq.',
      tags: ['http', 'curl', 'get', 'jq'],
    });
    const post = understandSnippet(
      `curl -s -X POST -H "Content-Type: application/json" -d '{"a":1}' https://api.example.com/v1/items | jq .id | head -n 1`,
      'sh',
    );
    expect(post?.name).toBe('POST https://api.example.com/v1/items | jq | head');
    expect(post?.description).toBe(
      'HTTP POST request to https://api.example.com/v1/items with curl, sending JSON, piped through jq and head.',
    );
    // a pipeline of other commands is named as typed
    expect(understandSnippet('cat app.log | grep ERROR | wc -l', 'sh')?.name).toBe('cat app.log | grep ERROR | wc -l');
  });

  it('logrotate: detected by its structure (plain text: no language of its own), named by the logs it rotates', () => {
    const app =
      '/var/log/app/*.log {\n  daily\n  rotate 7\n  compress\n  delaycompress\n  missingok\n  notifempty\n  create 0640 app app\n}\n';
    expect(matchConfigFormat(app)).toEqual({ code: 'txt', rule: 'logrotate' });
    expect(understandSnippet(app, 'txt')).toEqual({
      name: 'logrotate: /var/log/app/*.log (daily, keeps 7)',
      description: 'Logrotate configuration rotating /var/log/app/*.log daily, keeping 7 compressed old logs.',
      tags: ['logrotate', 'logs', 'daily'],
    });
    // labelled otherwise by a client (here as Go, what the classifier said before): read all the same
    expect(understandSnippet(app, 'go')?.name).toBe('logrotate: /var/log/app/*.log (daily, keeps 7)');
    const nginx =
      '/var/log/nginx/access.log /var/log/nginx/error.log {\n    weekly\n    rotate 4\n    missingok\n    sharedscripts\n    postrotate\n        systemctl reload nginx\n    endscript\n}\n';
    expect(matchConfigFormat(nginx)?.code).toBe('txt');
    expect(understandSnippet(nginx, 'txt')?.description).toBe(
      'Logrotate configuration rotating /var/log/nginx/access.log and /var/log/nginx/error.log weekly, keeping 4 old logs, with a postrotate script.',
    );
    // a block of code with words of logrotate's is not one
    expect(matchConfigFormat('func main() {\n  daily := 1\n  rotate(7)\n}\n')).toBeNull();
    expect(matchConfigFormat('/var/log/app/*.log {\n  daily\n}\n')).toBeNull();
  });

  it('a snippet that defines a function is left to the definitions namer', () => {
    expect(understandSnippet('greet() {\n  echo "hi $1"\n}\n', 'sh')).toBeUndefined();
    expect(understandSnippet('function load() {\n  return fetch("/api/items");\n}\n', 'js')).toBeUndefined();
    expect(
      understandSnippet(
        "const res = await fetch('https://api.example.com/items', { method: 'POST', body: JSON.stringify(x) });",
        'js',
      )?.name,
    ).toBe('fetch POST https://api.example.com/items');
  });

  it('.env names its variables and never shows their values', () => {
    const kind = understandSnippet('API_TOKEN=s3cr3t-value\nDEBUG=1\n', 'sh');
    expect(kind?.name).toBe('.env: API_TOKEN, DEBUG');
    expect(JSON.stringify(kind)).not.toContain('s3cr3t');
  });

  it('descriptions are one sentence cut at a word, whatever the input', () => {
    const many = Array.from(
      { length: 60 },
      (_, i) => `  job_with_a_long_name_${i}:\n    runs-on: ubuntu-latest\n`,
    ).join('');
    const kind = understandSnippet(`name: Very long workflow\non: push\njobs:\n${many}`, 'yaml');
    expect(kind?.description).toMatch(
      /^GitHub Actions workflow "Very long workflow" run on push with jobs .* and 56 more\.$/,
    );
    expect(kind!.description.length).toBeLessThanOrEqual(200);
    expect(listOf(['a', 'b', 'b', 'c', 'd'])).toBe('a, b, c and 1 more');
  });

  it('the configuration rules fire on their formats and not on code that shares their punctuation', () => {
    expect(
      matchConfigFormat('location /api/ {\n  proxy_pass http://app;\n  proxy_set_header Host $host;\n}\n')?.code,
    ).toBe('hljs-nginx');
    expect(matchConfigFormat('if (x) {\n  return y;\n  include z;\n}\n')).toBeNull();
    expect(
      matchConfigFormat('<Directory /var/www>\n  AllowOverride None\n  Require all granted\n</Directory>\n')?.code,
    ).toBe('hljs-apache');
    expect(matchConfigFormat('ARG V=3\nFROM alpine:$V\nRUN apk add curl\n')?.code).toBe('dockerfile');
    expect(matchConfigFormat('FROM the start we knew\nit would work\n')).toBeNull();
    expect(matchConfigFormat('all: app\n\napp: main.o\n\t$(CC) -o $@ $^\n')?.code).toBe('hljs-makefile');
    expect(matchConfigFormat('if x:\n\tpass\n')).toBeNull();
    expect(matchConfigFormat('variable "region" {\n  default = "eu-west-1"\n}\n')?.code).toBe('hcl');
    expect(matchConfigFormat('PORT=8080\nHOST=0.0.0.0\n')).toEqual({ code: 'sh', rule: 'dotenv' });
    expect(matchConfigFormat('PORT = 8080\n')).toBeNull();
  });
});
