#!/usr/bin/env node
// The program is @memsvc/dashboard-app's; this package only gathers memsvc's executables under one unscoped name.
import '@memsvc/dashboard-app/memsvc-dashboard';
