/**
 * deploy/kubernetes.yaml is valid: every object against Kubernetes' own
 * schemas (kubernetes-models validates with the API's OpenAPI definitions),
 * and the HAProxy configuration in its ConfigMap with `haproxy -c`. What is
 * served is the same recipe as deploy/haproxy.cfg, with replicas found
 * through DNS; this checks the parts that differ cannot be broken unseen.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { HAPROXY } from './helpers/cluster.js';

const MANIFEST = fileURLToPath(new URL('../../../deploy/kubernetes.yaml', import.meta.url));
const MODELS: Record<string, new (data: never) => { validate(): void }> = { Deployment, Service, ConfigMap };

const documents = parseAllDocuments(readFileSync(MANIFEST, 'utf8')).map((d) => d.toJS() as { kind: string; metadata: { name: string } } & Record<string, unknown>);

function validate(object: { kind: string } & Record<string, unknown>): void {
  const Model = MODELS[object.kind];
  if (!Model) throw new Error(`no schema model for kind ${object.kind}; add it to MODELS`);
  new Model(object as never).validate();
}

describe('deploy/kubernetes.yaml', () => {
  it('holds the replicas, Redis and HAProxy, each with its Service', () => {
    expect(documents.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
      'Deployment/reactor-mcp',
      'Service/reactor-mcp-replicas',
      'Deployment/reactor-mcp-redis',
      'Service/reactor-mcp-redis',
      'ConfigMap/reactor-mcp-haproxy',
      'Deployment/reactor-mcp-haproxy',
      'Service/reactor-mcp',
    ]);
  });

  it.each(documents.map((d) => [`${d.kind}/${d.metadata.name}`, d] as const))('%s is valid against the Kubernetes schema', (_name, object) => {
    expect(() => validate(object)).not.toThrow();
  });

  it('is checked for real: a wrong field type is refused', () => {
    const broken = structuredClone(documents[0]!) as { spec: { replicas: unknown } } & (typeof documents)[number];
    broken.spec.replicas = 'three';
    expect(() => validate(broken)).toThrow(/replicas/);
  });

  it('replicas are probed on /healthz, paused before SIGTERM, and given longer than the drain', () => {
    const replicas = documents[0] as unknown as { spec: { template: { spec: { terminationGracePeriodSeconds: number; containers: Array<{ readinessProbe: { httpGet: { path: string } }; lifecycle: { preStop: unknown }; args: string[] }> } } } };
    const pod = replicas.spec.template.spec;
    expect(pod.containers[0]!.readinessProbe.httpGet.path).toBe('/healthz');
    expect(pod.containers[0]!.lifecycle.preStop).toBeDefined();
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(15);
    expect(pod.containers[0]!.args).toContain('--redis-url=redis://reactor-mcp-redis:6379');
  });

  it('carries an HAProxy configuration that haproxy -c accepts', () => {
    const config = (documents.find((d) => d.kind === 'ConfigMap') as unknown as { data: Record<string, string> }).data['haproxy.cfg']!;
    expect(config).toContain('stick store-response res.hdr(mcp-session-id)');
    const dir = mkdtempSync(path.join(tmpdir(), 'reactor-k8s-haproxy-'));
    try {
      writeFileSync(path.join(dir, 'haproxy.cfg'), config);
      const checked = spawnSync(HAPROXY, ['-c', '-f', path.join(dir, 'haproxy.cfg')], { encoding: 'utf8' });
      if (checked.error) throw new Error(`HAProxy could not run (${checked.error.message}): install Debian's haproxy or set HAPROXY`);
      expect(checked.status, checked.stderr + checked.stdout).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
