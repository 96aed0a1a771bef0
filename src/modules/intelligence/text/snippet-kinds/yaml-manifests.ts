import { loadAll } from 'js-yaml';
import { Doc, SnippetKind, isDoc, keyedDocument, keysOf, kind, listOf, shortList, str } from './kind';

/**
 * YAML manifests, read by js-yaml: Kubernetes objects (kind and name), Compose files (their
 * services), CI workflows (GitHub Actions, GitLab CI: their jobs), Ansible plays, OpenAPI
 * documents; any other YAML by its top-level keys.
 */

/** The images a pod template (or a pod) runs. */
function imagesOf(spec: unknown): string[] {
  if (!isDoc(spec)) return [];
  const pod =
    isDoc(spec.template) && isDoc(spec.template.spec) ? spec.template.spec : isDoc(spec.jobTemplate) ? undefined : spec;
  const containers = pod && Array.isArray(pod.containers) ? pod.containers : [];
  return containers.map((c) => (isDoc(c) ? str(c.image) : undefined)).filter((i): i is string => !!i);
}

function kubernetes(docs: Doc[]): SnippetKind | undefined {
  const objects = docs.filter((d) => typeof d.kind === 'string' && typeof d.apiVersion === 'string');
  if (!objects.length) return undefined;
  const label = (d: Doc) => `${String(d.kind)} ${str(isDoc(d.metadata) ? d.metadata.name : undefined) ?? ''}`.trim();
  const first = objects[0];
  const spec = isDoc(first.spec) ? first.spec : {};
  const images = imagesOf(spec);
  const replicas = str(spec.replicas);
  const name =
    objects.length === 1 ? `${label(first)} (${String(first.apiVersion)})` : shortList(objects.map(label), 3);
  const parts = [
    replicas ? `${replicas} ${replicas === '1' ? 'replica' : 'replicas'}` : '',
    images.length ? `running ${listOf(images)}` : '',
    isDoc(first.metadata) && str(first.metadata.namespace) ? `in namespace ${str(first.metadata.namespace)}` : '',
  ].filter(Boolean);
  const firstName = str(isDoc(first.metadata) ? first.metadata.name : undefined);
  const description =
    objects.length === 1
      ? `Kubernetes ${String(first.kind)}${firstName ? ` "${firstName}"` : ''}${parts.length ? ` with ${parts.join(', ')}` : ''}`
      : `Kubernetes manifest of ${objects.length} objects: ${listOf(objects.map(label), 4)}`;
  return kind(name, description, [
    'kubernetes',
    ...objects.map((o) => String(o.kind)).slice(0, 2),
    ...(firstName ? [firstName] : []),
  ]);
}

function compose(doc: Doc): SnippetKind | undefined {
  if (!isDoc(doc.services)) return undefined;
  const services = Object.keys(doc.services);
  const images = Object.values(doc.services)
    .map((s) => (isDoc(s) ? str(s.image) : undefined))
    .filter((i): i is string => !!i);
  return kind(
    `Compose: ${shortList(services, 4)}`,
    `Docker Compose file with ${services.length === 1 ? 'service' : 'services'} ${listOf(services, 4)}${images.length ? ` (images ${listOf(images)})` : ''}`,
    ['docker-compose', ...services.slice(0, 3)],
  );
}

function githubActions(doc: Doc): SnippetKind | undefined {
  const on = doc.on ?? doc.true; // YAML 1.1 reads a bare `on:` key as true
  if (!isDoc(doc.jobs) || on === undefined) return undefined;
  const jobs = Object.keys(doc.jobs);
  const triggers = typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : keysOf(on);
  const title = str(doc.name);
  return kind(
    `${title ? `${title}: ` : ''}GitHub Actions jobs ${shortList(jobs, 3)}`,
    `GitHub Actions workflow${title ? ` "${title}"` : ''} run on ${listOf(triggers)} with ${jobs.length === 1 ? 'job' : 'jobs'} ${listOf(jobs, 4)}`,
    ['github-actions', 'ci', ...jobs.slice(0, 3)],
  );
}

/** GitLab CI: top-level entries with a `script` (and not the reserved keys). */
function gitlabCi(doc: Doc): SnippetKind | undefined {
  const reserved = new Set([
    'stages',
    'variables',
    'default',
    'include',
    'workflow',
    'image',
    'services',
    'before_script',
    'after_script',
    'cache',
  ]);
  const jobs = Object.entries(doc)
    .filter(
      ([key, value]) =>
        !reserved.has(key) &&
        !key.startsWith('.') &&
        isDoc(value) &&
        (value.script !== undefined || value.extends !== undefined || value.trigger !== undefined),
    )
    .map(([key]) => key);
  if (!jobs.length) return undefined;
  const stages = Array.isArray(doc.stages) ? doc.stages.map(String) : [];
  return kind(
    `GitLab CI jobs ${shortList(jobs, 3)}`,
    `GitLab CI pipeline with ${jobs.length === 1 ? 'job' : 'jobs'} ${listOf(jobs, 4)}${stages.length ? ` in stages ${listOf(stages, 4)}` : ''}`,
    ['gitlab-ci', 'ci', ...jobs.slice(0, 3)],
  );
}

function openApi(doc: Doc): SnippetKind | undefined {
  const version = str(doc.openapi) ?? str(doc.swagger);
  if (!version) return undefined;
  const title = isDoc(doc.info) ? str(doc.info.title) : undefined;
  const paths = keysOf(doc.paths);
  return kind(
    `${title ?? 'API'} (OpenAPI ${version})`,
    `OpenAPI ${version} description of ${title ? `"${title}"` : 'an API'}${paths.length ? ` with paths ${listOf(paths, 4)}` : ''}`,
    ['openapi', 'api', ...(title ? [title] : [])],
  );
}

/** An Ansible playbook: a list of plays with `hosts`. */
function ansible(docs: unknown[]): SnippetKind | undefined {
  const plays = docs
    .flatMap((d) => (Array.isArray(d) ? d : []))
    .filter((p): p is Doc => isDoc(p) && p.hosts !== undefined);
  if (!plays.length) return undefined;
  const names = plays.map((p) => str(p.name) ?? `hosts ${str(p.hosts) ?? ''}`);
  return kind(
    `Ansible: ${shortList(names, 2)}`,
    `Ansible playbook of ${plays.length} ${plays.length === 1 ? 'play' : 'plays'} on ${listOf(plays.map((p) => str(p.hosts) ?? ''))}`,
    ['ansible', ...plays.map((p) => str(p.hosts) ?? '')],
  );
}

export function understandYaml(text: string): SnippetKind | undefined {
  let docs: unknown[];
  try {
    docs = loadAll(text.slice(0, 100_000), null, { json: true }).filter((d) => d !== null && d !== undefined);
  } catch {
    return undefined;
  }
  const maps = docs.filter(isDoc);
  const known = kubernetes(maps) ?? ansible(docs);
  if (known) return known;
  const doc = maps[0];
  if (!doc) return undefined;
  const found = compose(doc) ?? githubActions(doc) ?? openApi(doc) ?? gitlabCi(doc);
  if (found) return found;
  return keyedDocument(doc, 'YAML', 'YAML document');
}
