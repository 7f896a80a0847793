#!/usr/bin/env node
import { processContext } from './cli-context.js';
import { runMemsvcReindex } from './memsvc-reindex-program.js';

process.exitCode = await runMemsvcReindex(process.argv.slice(2), processContext());
