#!/usr/bin/env node
// The program is @memsvc/cli's; this package only gathers memsvc's executables under one unscoped name.
import '@memsvc/cli/memsvc-reindex';
