import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default memsvcBuild({ memsvc: 'src/memsvc.ts' }, { declarations: false });
