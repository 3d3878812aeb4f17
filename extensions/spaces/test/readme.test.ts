/** The README's ts examples run against the package's sources. */
import { fileURLToPath } from 'node:url';
import { describeMarkdownExamples } from '../../../docExamples.js';

describeMarkdownExamples(fileURLToPath(new URL('../README.md', import.meta.url)), { outDir: fileURLToPath(new URL('./.readme-examples/', import.meta.url)) });
