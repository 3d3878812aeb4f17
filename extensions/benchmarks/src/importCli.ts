#!/usr/bin/env node
/**
 * The `reactor-benchmarks-import` bin. A command, not library code: it is the
 * one file here that writes to stdout/stderr directly.
 */
import { runImportCommand } from './importCommand.js';

process.exitCode = runImportCommand(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
