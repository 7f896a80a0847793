import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default memsvcBuild({ memsvc: 'src/memsvc.ts', 'memsvc-reindex': 'src/memsvc-reindex.ts' }, { declarations: false });
