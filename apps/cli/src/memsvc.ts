#!/usr/bin/env node
import { processContext } from './cli-context.js';
import { runMemsvc } from './memsvc-program.js';

process.exitCode = await runMemsvc(process.argv.slice(2), processContext());
