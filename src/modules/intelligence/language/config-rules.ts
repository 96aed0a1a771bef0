import type { LanguageCode } from './languages';

/** A format and the rule that found it (as rules.ts's RuleMatch). */
interface RuleMatch {
  code: LanguageCode;
  rule: string;
}

/**
 * Configuration formats the classifier was never trained on (nginx, Apache, Makefile, HCL) or
 * reads poorly (a Dockerfile without `RUN` lines, a `.env` file): each has a structure no
 * programming language shares, checked on the whole text before any model runs. Each rule asks
 * for the format's block or line structure AND several of its own directives, so one `listen 80;`
 * in a C comment or one `FROM x` in prose does not fire.
 */

/** The meaningful lines: without blank lines and `#` comments. */
function meaningful(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() && !/^\s*#/.test(l));
}

/** A block of nginx's own: `server {`, `http {`, `location /api/ {`, `upstream app {` (not `if (...) {`, which code shares). */
const NGINX_BLOCK =
  /^[ \t]*(?:server|http|events|stream|upstream[ \t]+[\w.-]+|location[ \t]+(?:[=~^*]+[ \t]*)?\/[^{\n;]*)[ \t]*\{[ \t]*$/m;
/** Directives only nginx has (not `return x;`, `include x;`, `index x;`, which read as code too). */
const NGINX_DIRECTIVE =
  /^[ \t]*(listen|server_name|proxy_pass|proxy_set_header|proxy_http_version|proxy_redirect|proxy_buffering|proxy_read_timeout|try_files|worker_processes|worker_connections|ssl_certificate(?:_key)?|ssl_protocols|client_max_body_size|gzip(?:_types)?|add_header|fastcgi_pass|fastcgi_param|fastcgi_index|sendfile|keepalive_timeout|access_log|error_log|default_type|limit_req(?:_zone)?|uwsgi_pass|uwsgi_param|autoindex)[ \t]+[^;\n(){}=]*;[ \t]*(?:#.*)?$/gm;

function isNginx(text: string): boolean {
  if (!NGINX_BLOCK.test(text)) return false;
  const directives = new Set([...text.matchAll(NGINX_DIRECTIVE)].map((m) => m[1]));
  return directives.size >= 2;
}

const APACHE_SECTION =
  /^[ \t]*<(?:VirtualHost|Directory|DirectoryMatch|Location|LocationMatch|Files|FilesMatch|IfModule|IfDefine|Proxy)\b[^>\n]*>[ \t]*$/m;
const APACHE_DIRECTIVE =
  /^[ \t]*(?:ServerName|ServerAlias|ServerAdmin|DocumentRoot|ErrorLog|CustomLog|LogLevel|RewriteEngine|RewriteRule|RewriteCond|RewriteBase|LoadModule|Listen|AllowOverride|Require|Options|DirectoryIndex|Alias|ScriptAlias|ProxyPass|ProxyPassReverse|ProxyPreserveHost|SSLEngine|SSLCertificateFile|SSLCertificateKeyFile|AddType|AddHandler|SetHandler|Order|Allow|Deny|Header|ErrorDocument|AuthType|AuthName|AuthUserFile|Redirect|RedirectMatch|ExpiresActive|ExpiresByType|WSGIScriptAlias|WSGIDaemonProcess|SetEnv|SetEnvIf|PassengerAppRoot)[ \t]+\S[^;{}\n]*$/gm;

function isApache(text: string): boolean {
  const directives = text.match(APACHE_DIRECTIVE)?.length ?? 0;
  const lines = meaningful(text).length;
  // a section with two directives, or (an .htaccess) directives on most lines
  return (APACHE_SECTION.test(text) && directives >= 2) || (directives >= 3 && directives * 2 >= lines);
}

const DOCKERFILE_LINE =
  /^(?:FROM|RUN|CMD|LABEL|EXPOSE|ENV|ADD|COPY|ENTRYPOINT|VOLUME|USER|WORKDIR|ARG|ONBUILD|STOPSIGNAL|HEALTHCHECK|SHELL|MAINTAINER)[ \t]+\S/;

/** A Dockerfile: its first instruction `FROM` (or `ARG`s before it), every line an instruction or the continuation of one. */
function isDockerfile(text: string): boolean {
  const lines = meaningful(text);
  if (lines.length < 2) return false;
  const first = lines.findIndex((l) => !/^ARG[ \t]/.test(l));
  if (first < 0 || !/^FROM[ \t]+\S/.test(lines[first])) return false;
  let continued = false;
  for (const line of lines) {
    if (!continued && !DOCKERFILE_LINE.test(line)) return false;
    continued = /\\[ \t]*$/.test(line);
  }
  return true;
}

/** A Makefile: a target line with a tab-indented recipe under it, and make's own syntax (`.PHONY`, `$(VAR)`, `$@`, `:=`). */
function isMakefile(text: string): boolean {
  const rule = /^[A-Za-z0-9_.%/$()-][\w.%/$() -]*:(?!=)[^\n=]*\n\t\S/m;
  if (!rule.test(text)) return false;
  if (/^[ \t]*(?:def|class|if|else|elif|try|except|for|while|with)\b[^\n]*:[ \t]*$/m.test(text)) return false;
  return /^\.PHONY[ \t]*:|\$\([A-Za-z_][\w]*\)|\$[@<^*?]|^[A-Za-z_][\w]*[ \t]*(?::=|\?=|\+=)/m.test(text);
}

/** HCL / Terraform: a top-level block `resource "type" "name" {` (or `variable`, `provider`, ...) and `key = value` lines. */
function isHcl(text: string): boolean {
  const blocks =
    text.match(
      /^(?:resource|data|module|variable|output|provider|terraform|locals)(?:[ \t]+"[^"\n]+"){0,2}[ \t]*\{[ \t]*$/gm,
    )?.length ?? 0;
  return blocks >= 1 && /^[ \t]+[A-Za-z_][\w-]*[ \t]*=[ \t]*\S/m.test(text) && !/;[ \t]*$/m.test(text);
}

/** `.env`: at least two lines, every one `NAME=value` with an upper-case name and no space before `=`. */
function isDotenv(text: string): boolean {
  const lines = meaningful(text);
  return (
    lines.length >= 2 &&
    lines.every((l) => /^(?:export[ \t]+)?[A-Z][A-Z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s"'`$;|&]*)[ \t]*(?:#.*)?$/.test(l))
  );
}

/** logrotate's directives (logrotate.conf(5)); `rotate 7`, `create 0640 app app`, `size 100M` take values. */
const LOGROTATE_DIRECTIVE =
  /^[ \t]*(daily|weekly|monthly|yearly|hourly|rotate|compress|nocompress|delaycompress|nodelaycompress|missingok|nomissingok|notifempty|ifempty|create|nocreate|copytruncate|nocopytruncate|dateext|nodateext|dateformat|sharedscripts|nosharedscripts|postrotate|prerotate|firstaction|lastaction|endscript|size|minsize|maxsize|maxage|olddir|su|compresscmd|compressext|compressoptions|extension|mail|nomail|start|shred|tabooext)\b[^\n{};=]*$/gm;

/**
 * A logrotate configuration: one or more blocks opened by log file paths or globs
 * (`/var/log/app/*.log {`), holding at least two of logrotate's directives.
 */
export function isLogrotate(text: string): boolean {
  if (
    !/^[ \t]*(?:\/[^\s{]+|"[^"\n]+")(?:[ \t]+(?:\/[^\s{]+|"[^"\n]+"))*[ \t]*\{[ \t]*$/m.test(text) ||
    !/^[ \t]*\}[ \t]*$/m.test(text)
  )
    return false;
  const directives = new Set([...text.matchAll(LOGROTATE_DIRECTIVE)].map((m) => m[1]));
  return directives.size >= 2;
}

/**
 * A configuration format, or null. `.env` is reported as shell: the SDK's language list
 * (ClassificationSpecificEnum) has no value for it, and a shell sources it. logrotate has none
 * either: plain text.
 */
export function matchConfigFormat(text: string): RuleMatch | null {
  if (isDockerfile(text)) return { code: 'dockerfile', rule: 'dockerfile-instructions' };
  if (isNginx(text)) return { code: 'hljs-nginx', rule: 'nginx-directives' };
  if (isApache(text)) return { code: 'hljs-apache', rule: 'apache-directives' };
  if (isHcl(text)) return { code: 'hcl', rule: 'hcl-blocks' };
  if (isMakefile(text)) return { code: 'hljs-makefile', rule: 'makefile-rules' };
  if (isDotenv(text)) return { code: 'sh', rule: 'dotenv' };
  // (the SDK's language list has no value for logrotate: plain text, named by snippet-kinds)
  if (isLogrotate(text)) return { code: 'txt', rule: 'logrotate' };
  return null;
}
