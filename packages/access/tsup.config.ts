import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default memsvcBuild({ index: 'src/index.ts' }, { declarations: true });
