import { describe, expect, it } from 'vitest';
import { readProgramFlags } from '../src/program-flags.js';

const spec = { name: 'memsvc-worker', version: '1.2.3', help: 'Usage: memsvc-worker\n', valueFlags: ['port', 'host'] };

describe('readProgramFlags', () => {
  it('--help and --version win over the rest of the line, wrong flags included', () => {
    expect(readProgramFlags(['--port', '9', '--nope', '--help'], spec)).toEqual({
      kind: 'exit',
      code: 0,
      stdout: 'Usage: memsvc-worker\n',
    });
    expect(readProgramFlags(['-v'], spec)).toEqual({ kind: 'exit', code: 0, stdout: '1.2.3\n' });
    expect(readProgramFlags(['-h'], spec)).toMatchObject({ kind: 'exit', code: 0 });
  });

  it('hands back the value flags given, in either spelling', () => {
    expect(readProgramFlags(['--port', '9464', '--host=0.0.0.0'], spec)).toEqual({
      kind: 'run',
      values: { port: '9464', host: '0.0.0.0' },
    });
    expect(readProgramFlags([], spec)).toEqual({ kind: 'run', values: {} });
  });

  it.each([
    [['--colour'], 'memsvc-worker: unknown flag --colour (memsvc-worker --help lists the flags)\n'],
    [['-x'], 'memsvc-worker: unknown flag -x (memsvc-worker --help lists the flags)\n'],
    [['start'], 'memsvc-worker: unexpected argument "start" (memsvc-worker --help lists the flags)\n'],
    [['--port'], 'memsvc-worker: --port needs a value (memsvc-worker --help lists the flags)\n'],
    [['--version=2'], 'memsvc-worker: --version takes no value (memsvc-worker --help lists the flags)\n'],
  ])('%j is a usage error (exit 2) naming what was wrong', (argv, stderr) => {
    expect(readProgramFlags(argv, spec)).toEqual({ kind: 'exit', code: 2, stderr });
  });
});
