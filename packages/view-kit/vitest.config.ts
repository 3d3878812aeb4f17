import { reactorProject } from '../../vitest.shared.js';

export default reactorProject('@reactor/view-kit');
