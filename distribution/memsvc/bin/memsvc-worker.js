#!/usr/bin/env node
// The program is @memsvc/worker's; this package only gathers memsvc's executables under one unscoped name.
import '@memsvc/worker/memsvc-worker';
