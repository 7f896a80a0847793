import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default memsvcBuild({ index: 'src/index.ts', 'memsvc-server': 'src/memsvc-server.ts' }, { declarations: false });
