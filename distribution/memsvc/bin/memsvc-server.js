#!/usr/bin/env node
// The program is @memsvc/server's; this package only gathers memsvc's executables under one unscoped name.
import '@memsvc/server/memsvc-server';
