/**
 * The README's ts examples run against the package's sources and a real
 * `redis-server` on a free loopback port (named by REDIS_URL, which the
 * example reads); it fails loudly when Redis cannot start.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { describeMarkdownExamples } from '../../../docExamples.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';

let redis: TestRedis | undefined;
const previous = process.env['REDIS_URL'];
beforeAll(async () => {
  redis = await startRedis();
  process.env['REDIS_URL'] = redis.url;
});
afterAll(async () => {
  if (previous === undefined) delete process.env['REDIS_URL'];
  else process.env['REDIS_URL'] = previous;
  await redis?.stop();
});

describeMarkdownExamples(fileURLToPath(new URL('../README.md', import.meta.url)), { outDir: fileURLToPath(new URL('./.readme-examples/', import.meta.url)) });
