import { mergeConfig } from 'vitest/config';
import { reactorProject } from '../../vitest.shared.js';

// globalSetup finds the Python the real-Jupyter tests use, once, and says what is missing if none has Jupyter.
export default mergeConfig(reactorProject('@reactor/ext-kernels'), { test: { globalSetup: ['./test/globalSetup.ts'] } });
