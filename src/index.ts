// The Action's front door (bundled to dist/index.js): everything happens in main.ts.
import { run } from './main.js';

await run();
