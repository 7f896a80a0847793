import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default memsvcBuild({ index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' }, { declarations: true });
